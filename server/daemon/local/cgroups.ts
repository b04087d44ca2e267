import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Hard limits for a server's sandbox from cgroups (v1), as Wings has Docker set them: a memory
 * hierarchy's `memory.limit_in_bytes` and a pids hierarchy's `pids.max`. Each server gets a child
 * group under the daemon's own group of that hierarchy; the sandbox is placed in it before bwrap
 * runs (the startup wrapper writes its own pid into `cgroup.procs`, then execs bwrap), so nothing
 * it starts is ever outside. Whether the machine lets us is found out once, by doing it; where it
 * does not (no hierarchy, read-only, not root), servers run without that limit and the memory
 * watchdog in `processes.ts` still applies.
 */

export type Controller = 'memory' | 'pids';

/** Extra memory the hard limit allows over the server's own, so the watchdog acts first (Wings' overhead). */
export function hardMemoryLimit(limitBytes: number): number {
  const mib = limitBytes / 1024 / 1024;
  const overhead = mib <= 2048 ? 1.15 : mib <= 4096 ? 1.1 : 1.05;
  return Math.round(limitBytes * overhead);
}

/** The directory of the daemon's own group in `controller`'s hierarchy, or null. */
function ownGroup(controller: Controller): string | null {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [, controllers, relative] = line.split(':');
    if (controllers === undefined || relative === undefined || !controllers.split(',').includes(controller)) continue;
    const dir = path.join('/sys/fs/cgroup', controller, relative);
    return fs.existsSync(path.join(dir, 'cgroup.procs')) ? dir : null;
  }
  return null;
}

/** True when a child group can be made under `dir` and a process moved into it. */
function usable(dir: string): boolean {
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let detected: Partial<Record<Controller, string | null>> = {};

/** The daemon's group of `controller` when servers can be limited with it, else null (found out once). */
export function cgroupRoot(controller: Controller): string | null {
  if (detected[controller] === undefined) {
    const dir = ownGroup(controller);
    const root = dir && usable(dir) ? dir : null;
    if (root) sweep(root);
    detected = { ...detected, [controller]: root };
  }
  return detected[controller] ?? null;
}

/** Numbers each start's groups: a start never reuses the groups of one still being removed. */
let starts = 0;

/** One server's groups while its process runs. */
export class ServerCgroups {
  private constructor(private readonly dirs: Partial<Record<Controller, string>>) {}

  /**
   * Groups for one start of `server` (named after this daemon's pid too, so two daemons on one
   * machine never share one), with `limits` written; controllers the machine does not allow, or
   * whose limit is 0, are left out.
   */
  static create(server: string, limits: { memoryBytes: number; pids: number }): ServerCgroups {
    const dirs: Partial<Record<Controller, string>> = {};
    starts += 1;
    const wanted: [Controller, string, number][] = [
      ['memory', 'memory.limit_in_bytes', limits.memoryBytes],
      ['pids', 'pids.max', limits.pids],
    ];
    for (const [controller, file, value] of wanted) {
      const root = value > 0 ? cgroupRoot(controller) : null;
      if (!root) continue;
      const dir = path.join(root, `aerie-${process.pid}-${server}-${starts}`);
      try {
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, file), String(value));
        dirs[controller] = dir;
      } catch {
        // this one is not enforced; the others still are
      }
    }
    return new ServerCgroups(dirs);
  }

  /** The `cgroup.procs` files the sandbox's first process writes its pid into. */
  procsFiles(): string[] {
    return Object.values(this.dirs).map((dir) => path.join(dir, 'cgroup.procs'));
  }

  /** True when the kernel killed a process of the group for going past its memory limit. */
  oomKilled(): boolean {
    if (!this.dirs.memory) return false;
    try {
      const control = fs.readFileSync(path.join(this.dirs.memory, 'memory.oom_control'), 'utf8');
      // Kernels before 4.13 do not count kills: such a stop looks like a crash there.
      return Number(/^oom_kill (\d+)$/m.exec(control)?.[1] ?? 0) > 0;
    } catch {
      return false;
    }
  }

  /** Removes the groups once their processes are gone (once more a second later, if the kernel still held one). */
  remove(retry = true): void {
    let busy = false;
    for (const dir of Object.values(this.dirs)) {
      try {
        fs.rmdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EBUSY') busy = true;
      }
    }
    if (busy && retry) setTimeout(() => this.remove(false), 1000).unref();
  }
}
