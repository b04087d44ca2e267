import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import type { CgroupRoots } from './cgroup-roots';
import { hardMemoryLimit, ServerCgroups } from './cgroups';
import { readLines } from './line-reader';
import { networkFor, readCounters, type Allocation, type NetworkOptions, type SandboxNetwork } from './network';
import { spawnSandboxed, type SandboxSpec } from './sandbox';

/*
 * One run of a server's program in its environment, Wings' seam between the environment (a
 * container with limits) and the server's power state machine on top (`processes.ts`): the
 * sandbox (`sandbox.ts`) placed in its cgroups (`cgroups.ts`) before it starts, its output as
 * capped lines, its input, signals to the program inside, its resource use, and how it ended.
 * It knows nothing of states, consoles or eggs.
 */

export interface EnvironmentLimits {
  /** Bytes of memory, hard (with Wings' overhead); 0: none. */
  memoryBytes: number;
  /** Processes and threads; 0: none. */
  pids: number;
  /** CPU in percent of one core (Wings' cpu_limit); 0: none. */
  cpuPercent?: number;
  /** Wings' blkio weight (10–1000); 0: the kernel's default. */
  ioWeight?: number;
}

export interface Usage {
  /** Bytes the sandbox holds: its memory group's figure (tmpfs included) where it has one, else its processes' resident bytes. */
  memoryBytes: number;
  /** CPU used since the last figure (since the start for the first), 100 being one core. */
  cpuPercent: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux architecture Node runs on). */
const TICKS_PER_SECOND = 100;
/** A CPU figure is measured over at least this long (the ticker's interval, about). */
const MIN_CPU_WINDOW_MS = 500;
/** How long a killed sandbox may take to let go of its pipes before what is left of it is killed too. */
const KILL_GRACE_MS = 2_000;

export class SandboxedProcess {
  /** Settles once every process of the sandbox is gone and its groups are removed. */
  readonly exited: Promise<void>;
  /** Whether the kernel killed a process of it at its hard memory limit, known once it exited. */
  private killedForMemory = false;
  /** The last CPU sample (ticks of every process in the sandbox, when, and the figure it gave), for the next figure. */
  private cpuSample: { ticks: number; at: number; cpu: number } | null = null;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly cgroups: ServerCgroups,
    readonly startedAt: number,
    private readonly network: SandboxNetwork | null,
  ) {
    this.exited = new Promise((resolve) =>
      child.on('close', () => {
        this.killedForMemory = cgroups.oomKilled();
        cgroups.remove();
        // Its forwarded ports are free again once this settles (a restart binds them).
        void (network?.close() ?? Promise.resolve()).then(resolve);
      }),
    );
    child.stdin.on('error', () => undefined); // writing to a process that just ended
  }

  /**
   * Starts `spec` in its sandbox inside new groups for `server` with `limits`; each line it prints
   * (stdout and stderr, capped) goes to `onLine`. Throws when the sandbox cannot be started.
   */
  static async start(options: {
    server: string;
    spec: SandboxSpec;
    bwrap: string;
    /** Its network: pasta and the host ports it may reach; its allocations forwarded in. */
    network: NetworkOptions;
    allocations: Allocation[];
    limits: EnvironmentLimits;
    startedAt: number;
    onLine: (line: string) => void;
    onError: (error: Error) => void;
    /** Where the groups are made; this machine's by default. */
    roots?: CgroupRoots;
  }): Promise<SandboxedProcess> {
    const { limits } = options;
    const memoryBytes = limits.memoryBytes > 0 ? hardMemoryLimit(limits.memoryBytes) : 0;
    const cgroups = ServerCgroups.create(options.server, { ...limits, memoryBytes }, options.roots);
    let network: SandboxNetwork | null = null;
    let child: ChildProcessWithoutNullStreams;
    try {
      network = await networkFor(options.allocations, options.network);
      child = spawnSandboxed({ ...options.spec, cgroupProcs: cgroups.procsFiles(), tmpfsBytes: memoryBytes, netns: network?.file }, options.bwrap);
    } catch (error) {
      cgroups.remove();
      await network?.close();
      throw error;
    }
    child.on('error', options.onError);
    for (const stream of [child.stdout, child.stderr]) readLines(stream, options.onLine);
    return new SandboxedProcess(child, cgroups, options.startedAt, network);
  }

  /** A line on the program's standard input. */
  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /**
   * Sends `signal` to the program inside the sandbox: every process below bwrap that is not bwrap
   * itself (bwrap would die of it and take the program with it before it could shut down cleanly).
   */
  signal(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    for (const pid of descendants(this.child.pid)) {
      let comm: string;
      try {
        comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        continue;
      }
      if (comm === 'bwrap' || comm === 'sh') continue;
      try {
        process.kill(pid, signal);
      } catch {
        // gone meanwhile
      }
    }
  }

  /** Ends everything in the sandbox at once: bwrap dies of SIGKILL, and its processes with it (--die-with-parent). */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    // Killed while bwrap was still setting up, its child can be left behind holding the output
    // pipes, so 'close' never comes: what is left in the groups is killed and the pipes let go.
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([this.exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), KILL_GRACE_MS)))]);
    clearTimeout(timer);
    if (!late) return;
    this.cgroups.killAll();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    await this.exited;
  }

  /** What every process in the sandbox uses at `now` (zeros once it is gone). */
  usage(now: number): Usage {
    const pid = this.child.pid;
    if (pid === undefined) return { memoryBytes: 0, cpuPercent: 0 };
    const pids = [pid, ...descendants(pid)];
    // tmpfs and shared memory are in no process's VmRSS: the group's figure counts them.
    const memoryBytes = this.cgroups.memoryBytes() ?? pids.reduce((sum, p) => sum + residentBytes(p), 0);
    const last = this.cpuSample;
    // Asked again right after the ticker: a few clock ticks would give a coarse figure.
    if (last && now - last.at < MIN_CPU_WINDOW_MS) return { memoryBytes, cpuPercent: last.cpu };
    const ticks = pids.reduce((sum, p) => sum + cpuTicks(p), 0);
    const since = last ?? { ticks: 0, at: this.startedAt };
    const seconds = (now - since.at) / 1000;
    const cpu = seconds > 0 ? Math.max(0, ((ticks - since.ticks) / TICKS_PER_SECOND / seconds) * 100) : 0;
    this.cpuSample = { ticks, at: now, cpu };
    return { memoryBytes, cpuPercent: cpu };
  }

  /** Bytes its network namespace received and sent (zeros on the host's network). */
  networkCounters(): { rx_bytes: number; tx_bytes: number } {
    const pid = this.child.pid;
    const { rxBytes, txBytes } = this.network && pid !== undefined ? readCounters(pid) : { rxBytes: 0, txBytes: 0 };
    return { rx_bytes: rxBytes, tx_bytes: txBytes };
  }

  /** True (once it exited) when the kernel killed a process of the sandbox for going past its hard memory limit. */
  oomKilled(): boolean {
    return this.killedForMemory;
  }

  /** How it ended, for the console: an exit code or a signal name. */
  exitDescription(): string {
    return String(this.child.exitCode ?? this.child.signalCode ?? 'unknown');
  }
}

/** Every process below `pid` (through /proc's children lists), deepest last. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
      children = children.concat(
        list
          .split(' ')
          .filter((s) => s !== '')
          .map(Number),
      );
    }
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** User and system CPU time of a process, in clock ticks (0 when it is gone). */
function cpuTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Resident memory of a process in bytes (0 when it is gone). */
function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
