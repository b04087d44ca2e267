import fs from 'node:fs';
import path from 'node:path';
import { cgroupRoots, V1_OF, type CgroupRoots, type Controller, type V1Hierarchy } from './cgroup-roots';

/*
 * Hard limits for a server's sandbox from cgroups, as Wings has Docker set them: memory (no swap),
 * processes, CPU time and disk I/O weight. Each start of a server gets a child group of the
 * daemon's (`cgroup-roots.ts`): one v2 group for what v2 offers, a v1 group per hierarchy for the
 * rest. The sandbox is placed in them before bwrap runs (the startup wrapper writes its own pid
 * into each `cgroup.procs`, then execs bwrap), so nothing it starts is ever outside.
 *
 * Tested on this project's machines with v1 (memory, pids, cpu, cpuacct): limits, usage and the
 * OOM count. Their v2 hierarchy offers no controllers, so of v2 only the group's creation and the
 * process's placement are exercised; the v2 files written here (memory.max, memory.swap.max,
 * pids.max, cpu.max, io.weight, memory.current/stat/events, cpu.stat) follow the kernel's
 * Documentation/admin-guide/cgroup-v2.rst.
 */

export { type Controller } from './cgroup-roots';

export interface CgroupLimits {
  /** Bytes of memory, swap excluded (the caller adds the overhead: `hardMemoryLimit`); 0: none. */
  memoryBytes: number;
  /** Processes and threads; 0: none. */
  pids: number;
  /** CPU in percent of one core (Wings' cpu_limit: 150 = one and a half cores); 0: none. */
  cpuPercent?: number;
  /** Wings' blkio weight, 10–1000; 0: the kernel's default. */
  ioWeight?: number;
}

/** Extra memory the hard limit allows over the server's own, so the watchdog acts first (Wings' overhead). */
export function hardMemoryLimit(limitBytes: number): number {
  const mib = limitBytes / 1024 / 1024;
  const overhead = mib <= 2048 ? 1.15 : mib <= 4096 ? 1.1 : 1.05;
  return Math.round(limitBytes * overhead);
}

/** The CFS period both versions use: 100 ms, Docker's. */
const CPU_PERIOD_US = 100_000;

/**
 * v2's io.weight (1–10000, default 100) for a v1 blkio weight (10–1000): the linear mapping
 * runc and crun use when Docker runs on v2, so a Wings weight means here what it means there
 * (10 → 1, 500 → 4950, 1000 → 10000).
 */
export function ioWeightV2(blkioWeight: number): number {
  const clamped = Math.min(1000, Math.max(10, blkioWeight));
  return Math.round(1 + ((clamped - 10) * 9999) / 990);
}

/** The files and values `limits` become in each version (a 0 limit writes nothing). */
function limitFiles(limits: CgroupLimits): Record<Controller, { v2: [string, string][]; v1: [string, string][] }> {
  const { memoryBytes, pids, cpuPercent = 0, ioWeight = 0 } = limits;
  const quota = Math.round(cpuPercent * 1000);
  const weight = Math.min(1000, Math.max(10, ioWeight));
  return {
    // No swap: tmpfs pages and the heap count against the limit alone (Wings sets swap to the limit's worth; the panel has no swap setting).
    memory: {
      v2:
        memoryBytes > 0
          ? [
              ['memory.max', String(memoryBytes)],
              ['memory.swap.max', '0'],
            ]
          : [],
      v1:
        memoryBytes > 0
          ? [
              ['memory.limit_in_bytes', String(memoryBytes)],
              ['memory.memsw.limit_in_bytes', String(memoryBytes)],
            ]
          : [],
    },
    pids: { v2: pids > 0 ? [['pids.max', String(pids)]] : [], v1: pids > 0 ? [['pids.max', String(pids)]] : [] },
    cpu: {
      v2: quota > 0 ? [['cpu.max', `${quota} ${CPU_PERIOD_US}`]] : [],
      v1:
        quota > 0
          ? [
              ['cpu.cfs_period_us', String(CPU_PERIOD_US)],
              ['cpu.cfs_quota_us', String(quota)],
            ]
          : [],
    },
    // blkio.weight exists with the CFQ scheduler only, blkio.bfq.weight with BFQ: the first there is.
    io: {
      v2: ioWeight > 0 ? [['io.weight', `default ${ioWeightV2(ioWeight)}`]] : [],
      v1: ioWeight > 0 ? [['blkio.weight|blkio.bfq.weight', String(weight)]] : [],
    },
  };
}

/** Writes `value` into the first of `names` (`a|b`) that exists in `dir`; false when none took it. */
function writeLimit(dir: string, names: string, value: string): boolean {
  for (const name of names.split('|')) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    try {
      fs.writeFileSync(file, value);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** Numbers each start's groups: a start never reuses the groups of one still being removed. */
let starts = 0;

/** One server's groups while its process runs. */
export class ServerCgroups {
  private constructor(
    private readonly v2: string | null,
    private readonly v1: Partial<Record<V1Hierarchy, string>>,
  ) {}

  /**
   * Groups for one start of `server` (named after this daemon's pid too, so two daemons on one
   * machine never share one), with `limits` written. A limit the machine cannot set is left out:
   * whether servers may start so is the caller's decision (`canLimitServers`).
   */
  static create(server: string, limits: CgroupLimits, roots: CgroupRoots = cgroupRoots()): ServerCgroups {
    starts += 1;
    const name = `aerie-${process.pid}-${server}-${starts}`;
    const files = limitFiles(limits);
    let v2: string | null = null;
    if (roots.v2) {
      const dir = path.join(roots.v2.dir, name);
      try {
        fs.mkdirSync(dir);
        v2 = dir;
        for (const c of roots.v2.controllers) for (const [file, value] of files[c].v2) writeLimit(dir, file, value);
      } catch {
        // not made: v1 (if any) still holds what it can
      }
    }
    const v1: Partial<Record<V1Hierarchy, string>> = {};
    const make = (hierarchy: V1Hierarchy, writes: [string, string][]): void => {
      const root = roots.v1[hierarchy];
      if (!root) return;
      const dir = path.join(root, name);
      try {
        fs.mkdirSync(dir);
      } catch (error) {
        // EEXIST: the hierarchy is mounted with another (cpu,cpuacct), whose group this already is
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
      }
      v1[hierarchy] = dir;
      for (const [file, value] of writes) writeLimit(dir, file, value);
    };
    for (const c of Object.keys(files) as Controller[]) {
      if (roots.v2?.controllers.includes(c)) continue;
      if (files[c].v1.length > 0) make(V1_OF[c], files[c].v1);
      // The group's CPU use is counted whether or not it is limited.
      if (c === 'cpu') make('cpuacct', []);
    }
    return new ServerCgroups(v2, v1);
  }

  /** The `cgroup.procs` files the sandbox's first process writes its pid into (each hierarchy once). */
  procsFiles(): string[] {
    const dirs = [...(this.v2 ? [this.v2] : []), ...Object.values(this.v1)];
    return [...new Set(dirs.map((dir) => fs.realpathSync(dir)))].map((dir) => path.join(dir, 'cgroup.procs'));
  }

  /** Kills every process left in the groups (one orphaned by a kill during the sandbox's own set-up). */
  killAll(): void {
    for (const file of this.procsFiles()) {
      let pids: number[];
      try {
        pids = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
      } catch {
        continue;
      }
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    }
  }

  /** The v2 group's file `name`, or the v1 `hierarchy` group's file `v1Name`, whichever this server has. */
  private read(v1Hierarchy: V1Hierarchy, v1Name: string, v2Name: string): { text: string; version: 1 | 2 } | null {
    const v1 = this.v1[v1Hierarchy];
    const [dir, name, version] = v1 ? [v1, v1Name, 1 as const] : this.v2 ? [this.v2, v2Name, 2 as const] : [null, '', 2 as const];
    if (!dir) return null;
    try {
      return { text: fs.readFileSync(path.join(dir, name), 'utf8'), version };
    } catch {
      return null;
    }
  }

  /** True when the kernel killed a process of the group for going past its memory limit. */
  oomKilled(): boolean {
    // Kernels before 4.13 do not count kills in v1's oom_control: such a stop looks like a crash there.
    const events = this.read('memory', 'memory.oom_control', 'memory.events');
    return Number(/^oom_kill (\d+)$/m.exec(events?.text ?? '')?.[1] ?? 0) > 0;
  }

  /**
   * Memory the server holds, tmpfs and shared memory included (they are not in any process's
   * VmRSS): the group's usage less its inactive file cache, as `docker stats` counts. Null
   * without a memory group.
   */
  memoryBytes(): number | null {
    if (!this.v1.memory && !this.v2) return null;
    const usage = this.read('memory', 'memory.usage_in_bytes', 'memory.current');
    const stat = this.read('memory', 'memory.stat', 'memory.stat');
    if (!usage) return null;
    const key = usage.version === 1 ? 'total_inactive_file' : 'inactive_file';
    const inactive = Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(stat?.text ?? '')?.[1] ?? 0);
    return Math.max(0, Number(usage.text.trim()) - inactive);
  }

  /** CPU time the group used, in microseconds (v2 cpu.stat usage_usec, v1 cpuacct.usage); null without either. */
  cpuMicros(): number | null {
    const usage = this.read('cpuacct', 'cpuacct.usage', 'cpu.stat');
    if (!usage) return null;
    if (usage.version === 1) return Math.round(Number(usage.text.trim()) / 1000);
    const micros = /^usage_usec (\d+)$/m.exec(usage.text)?.[1];
    return micros === undefined ? null : Number(micros);
  }

  /** Removes the groups once their processes are gone (once more a second later, if the kernel still held one). */
  remove(retry = true): void {
    let busy = false;
    for (const dir of [...(this.v2 ? [this.v2] : []), ...Object.values(this.v1)]) {
      try {
        fs.rmdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EBUSY') busy = true;
      }
    }
    if (busy && retry) setTimeout(() => this.remove(false), 1000).unref();
  }
}
