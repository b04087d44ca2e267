import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Where a server's groups can be made, found once per daemon. cgroup v2 (the only kind on today's
 * distributions) is preferred: the daemon's own group (`0::/path` in /proc/self/cgroup, under
 * /sys/fs/cgroup on a pure-v2 host or /sys/fs/cgroup/unified on a hybrid one) must be delegated to
 * it (root, or systemd's Delegate=yes). v2 allows no processes in a group that hands controllers
 * to its children, so the daemon first moves the processes of its own group into a leaf child
 * (`aerie-panel`), then enables the controllers its group offers in `cgroup.subtree_control`, as
 * systemd's delegation documentation asks. What v2 cannot give, v1 may, per controller: a child of
 * the daemon's group in that controller's hierarchy.
 */

/** What a server is limited by: memory, processes, CPU time, and its share of disk I/O. */
export type Controller = 'memory' | 'pids' | 'cpu' | 'io';

/** v1's names of the hierarchies: io is blkio there, and CPU usage is counted by cpuacct. */
export type V1Hierarchy = 'memory' | 'pids' | 'cpu' | 'cpuacct' | 'blkio';

export interface CgroupRoots {
  /** The delegated v2 group servers' groups are made in, and the controllers enabled for them. */
  v2: { dir: string; controllers: Controller[] } | null;
  /** For what v2 does not offer: the daemon's group in each v1 hierarchy that can be used. */
  v1: Partial<Record<V1Hierarchy, string>>;
}

const CONTROLLERS: Controller[] = ['memory', 'pids', 'cpu', 'io'];
const V1_OF: Record<Controller, V1Hierarchy> = { memory: 'memory', pids: 'pids', cpu: 'cpu', io: 'blkio' };
/** The leaf the daemon's own processes move into, so its group may hand controllers to servers' groups. */
export const PANEL_LEAF = 'aerie-panel';

function readProcSelfCgroup(): string {
  try {
    return fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return '';
  }
}

/** The daemon's v2 group and the controllers it has (`cgroup.controllers`); nothing is changed. */
export function v2Group(procSelfCgroup = readProcSelfCgroup()): { dir: string; available: Controller[] } | null {
  const relative = /^0::(\/.*)$/m.exec(procSelfCgroup)?.[1];
  if (relative === undefined) return null;
  // Pure v2: the hierarchy is /sys/fs/cgroup itself; hybrid: it is mounted at /sys/fs/cgroup/unified.
  const base = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : '/sys/fs/cgroup/unified';
  let dir = path.resolve(base, `.${relative}`);
  // Already moved into our leaf (a second detection in the same process): its parent is the group.
  if (path.basename(dir) === PANEL_LEAF) dir = path.dirname(dir);
  try {
    const listed = fs.readFileSync(path.join(dir, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
    return { dir, available: CONTROLLERS.filter((c) => listed.includes(c)) };
  } catch {
    return null;
  }
}

/**
 * Enables `wanted` for the children of `dir`; where the kernel refuses because `dir` holds
 * processes (EBUSY: every group but the root), moves them into its leaf first. Returns the
 * controllers enabled after it, [] when the group is not ours to delegate.
 */
function delegate(dir: string, wanted: Controller[]): Controller[] {
  const control = path.join(dir, 'cgroup.subtree_control');
  const enable = (): void => {
    for (const c of wanted) fs.writeFileSync(control, `+${c}`);
  };
  try {
    enable();
  } catch {
    try {
      const leaf = path.join(dir, PANEL_LEAF);
      fs.mkdirSync(leaf, { recursive: true });
      for (const pid of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          fs.writeFileSync(path.join(leaf, 'cgroup.procs'), pid);
        } catch {
          // ended meanwhile; one that cannot move makes the next write fail
        }
      }
      enable();
    } catch {
      // not delegated to us: what was enabled before still counts
    }
  }
  try {
    const enabled = fs.readFileSync(control, 'utf8').trim().split(/\s+/);
    return wanted.filter((c) => enabled.includes(c));
  } catch {
    return [];
  }
}

/** The daemon's group in v1 `hierarchy`, or null. */
function v1Group(hierarchy: V1Hierarchy, procSelfCgroup: string): string | null {
  for (const line of procSelfCgroup.split('\n')) {
    const [, names, relative] = line.split(':');
    if (names === undefined || relative === undefined || !names.split(',').includes(hierarchy)) continue;
    const dir = path.join('/sys/fs/cgroup', hierarchy, relative);
    return fs.existsSync(path.join(dir, 'cgroup.procs')) ? dir : null;
  }
  return null;
}

/** True when a child group can be made under `dir` and a process moved into it (found out by doing it). */
export function usable(dir: string): boolean {
  const probe = path.join(dir, `aerie-probe-${process.pid}`);
  try {
    fs.mkdirSync(probe);
  } catch {
    return false;
  }
  try {
    const moved = spawnSync('/bin/sh', ['-c', 'echo $$ > "$1"', 'sh', path.join(probe, 'cgroup.procs')], { stdio: 'ignore', timeout: 5000 });
    return moved.status === 0;
  } finally {
    try {
      fs.rmdirSync(probe);
    } catch {
      // the probe's process is gone, so this only fails if something else holds it
    }
  }
}

/** Removes the empty groups a daemon that is gone left behind (it was killed before it could). */
function sweep(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const pid = /^aerie-(\d+)-/.exec(name)?.[1];
    if (!pid || alive(Number(pid))) continue;
    try {
      fs.rmdirSync(path.join(dir, name));
    } catch {
      // still holds a process, or another daemon swept it first
    }
  }
}

/** Whether a process with that pid exists (one of another user's too). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Finds the roots on this machine, delegating the v2 group when it offers controllers v1 does not hold. */
export function detectCgroupRoots(procSelfCgroup = readProcSelfCgroup()): CgroupRoots {
  let v2: CgroupRoots['v2'] = null;
  const group = v2Group(procSelfCgroup);
  if (group && group.available.length > 0) {
    const controllers = delegate(group.dir, group.available);
    if (controllers.length > 0 && usable(group.dir)) v2 = { dir: group.dir, controllers };
  }
  const v1: CgroupRoots['v1'] = {};
  const wanted = new Set<V1Hierarchy>(CONTROLLERS.filter((c) => !v2?.controllers.includes(c)).map((c) => V1_OF[c]));
  // CPU use is read from cpuacct where v1 limits the CPU.
  if (wanted.has('cpu')) wanted.add('cpuacct');
  for (const hierarchy of wanted) {
    const dir = v1Group(hierarchy, procSelfCgroup);
    // blkio has a weight only under the CFQ or BFQ scheduler; without one it limits nothing.
    const weighs = hierarchy !== 'blkio' || ['blkio.weight', 'blkio.bfq.weight'].some((f) => dir && fs.existsSync(path.join(dir, f)));
    if (dir && weighs && usable(dir)) v1[hierarchy] = dir;
  }
  for (const dir of [v2?.dir, ...Object.values(v1)]) if (dir) sweep(dir);
  return { v2, v1 };
}

let detected: CgroupRoots | null = null;

/** This machine's roots, found once per daemon. */
export function cgroupRoots(): CgroupRoots {
  detected ??= detectCgroupRoots();
  return detected;
}

/** Which controllers, through which version, `roots` can limit servers with. */
export function limitedBy(roots: CgroupRoots): Partial<Record<Controller, 'v1' | 'v2'>> {
  const by: Partial<Record<Controller, 'v1' | 'v2'>> = {};
  for (const c of CONTROLLERS) {
    if (roots.v2?.controllers.includes(c)) by[c] = 'v2';
    else if (roots.v1[V1_OF[c]]) by[c] = 'v1';
  }
  return by;
}

/** True when `roots` hold a server to its memory and process limits, the least a shared host needs. */
export function canLimitServers(roots: CgroupRoots): boolean {
  const by = limitedBy(roots);
  return by.memory !== undefined && by.pids !== undefined;
}

/** One line for the start-up output: what limits servers, e.g. "memory (v1), pids (v1), cpu (v2)", or "none". */
export function describeCgroupRoots(roots: CgroupRoots): string {
  const by = Object.entries(limitedBy(roots)).map(([c, v]) => `${c} (${v})`);
  return by.length > 0 ? by.join(', ') : 'none';
}

export { V1_OF };

/** Why nothing starts on a machine without limits, and what it needs (console, power buttons, start-up). */
export const NO_LIMITS =
  'Servers cannot be started: this machine gives the panel no cgroups to hold a server to its memory and process limits. Run the panel as root, or as a systemd service with Delegate=yes, on a host with cgroup v2 (memory and pids controllers) or cgroup v1 memory and pids hierarchies — or set PANEL_ALLOW_UNLIMITED_SERVERS=true to run servers without limits.';

/** Said at each start of a server when the operator allowed servers without limits. */
export const RUNNING_UNLIMITED =
  'This machine gives the panel no cgroups to limit servers with: the server runs without memory and process limits (PANEL_ALLOW_UNLIMITED_SERVERS=true).';
