import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { ProcessState, SocketStats } from '../../../src/contract';
import type { ConsoleCapability, ConsoleEvent, PowerAction, ProcessCapability, ServerConfiguration, StatsCapability } from '../capabilities';
import { DaemonError } from '../types';
import type { DaemonLog } from './events';
import { hardMemoryLimit, ServerCgroups } from './cgroups';
import { CONTAINER_HOME, MISSING_BWRAP, spawnSandboxed } from './sandbox';

/*
 * Servers' processes, as Wings runs them: the startup command (the egg's invocation with its
 * `{{VARIABLE}}`s filled in) in the server's sandbox, its volume as the working directory. States
 * are Wings' own: `offline` → `starting` → `running` once an egg's "done" line appears (at once
 * when the egg has none) → `stopping` → `offline`. Stop sends the egg's stop command (a console
 * line, or a signal such as `^C`), waits, then kills. A process that ends by itself while running
 * has crashed: the daemon says so, and starts it again once if it had run for a minute.
 *
 * Limits come from the configuration's build: the process count (and the memory, with some
 * overhead) are hard cgroup limits where the machine allows them (`cgroups.ts`); the memory limit
 * is also watched: while a server runs, its stats are taken every second (sent to whoever listens),
 * and one whose processes use more than its limit is killed, unless its OOM killer is disabled.
 * Such a stop, like one the kernel made, is not a crash.
 *
 * Each server's recent console output is kept (a bounded number of lines) and appended to a log
 * file in the data dir, outside the volume, so the console replays after a reload or a restart.
 * What the daemon itself says (`daemon message`: starting, crashes, the watchdog) is not part of
 * that log, as in Wings: it is sent live only.
 */

export interface ProcessOptions {
  /** Where console logs go (`<dir>/<uuid>.log`): the data dir, never a volume. */
  logDir: string;
  /** The server's configuration, as the daemon holds it. */
  configuration: (server: string) => Promise<ServerConfiguration>;
  /** The server's volume on the host. */
  volumePath: (server: string) => string;
  /** The server's power lock: power actions run one at a time, never during a restore or reinstall. */
  powerLock: <T>(server: string, fn: () => Promise<T>) => Promise<T>;
  /** The sandbox program; null when missing (nothing starts then). */
  bwrap: string | null;
  log: DaemonLog;
  now?: () => number;
  /** How long a stop waits for the process before killing it. */
  stopTimeoutMs?: number;
  /** Lines of console output kept per server. */
  historyLines?: number;
  /** A crash after running this long is restarted once (Wings: a minute). */
  crashRestartAfterMs?: number;
  /** What the server's volume holds on disk (the quota's figure). */
  diskBytes?: (server: string) => Promise<number>;
  /** Processes (and threads) one server may run at once; 0 = no limit (Wings: 512). */
  pidsLimit?: number;
  /** How often a running server's stats are taken (and its memory checked). */
  statsIntervalMs?: number;
  /** Hard limits from cgroups where the machine allows them (true by default); the watchdog either way. */
  cgroups?: boolean;
}

/** How long a disk figure is shown before the volume is measured again. */
const DISK_FIGURE_MS = 10_000;
/** A CPU figure is measured over at least this long (the ticker's interval, about). */
const MIN_CPU_WINDOW_MS = 500;
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/** Longest console line kept; a program printing without newlines cannot grow memory past it. */
const MAX_LINE = 8192;
const MIB = 1024 * 1024;
/** The servers that ran when the daemon stopped, in the log dir, for `resume`. */
const RUNNING_FILE = 'running.json';

interface Running {
  child: ChildProcessWithoutNullStreams;
  startedAt: number;
  exited: Promise<void>;
  /** Set by stop and kill: the exit that follows is not a crash. */
  stopping: boolean;
  /** Its groups (hard limits), removed when it ends. */
  cgroups: ServerCgroups;
  /** Bytes the watchdog allows (0: not watched: no limit, or the OOM killer disabled). */
  memoryLimit: number;
}

class ServerProcess {
  state: ProcessState = 'offline';
  /** The last CPU sample (ticks of every process in the sandbox, when, and the figure it gave), for the next figure. */
  cpuSample: { ticks: number; at: number; cpu: number } | null = null;
  disk: { bytes: number; at: number } | null = null;
  running: Running | null = null;
  /** Takes the stats every second while it runs and someone listens or its memory is watched. */
  ticker: NodeJS.Timeout | null = null;
  ticking = false;
  /** Console output not yet in the log file, and whether a write of it is under way. */
  logPending = '';
  logWriting = false;
  readonly history: string[] = [];
  readonly listeners = new Set<(event: ConsoleEvent) => void>();
}

/** The signal a Wings stop value names (`^C` is SIGINT, `^X`-style values and names such as `SIGTERM`). */
export function stopSignal(value: string): NodeJS.Signals {
  const v = value.trim().toUpperCase();
  if (v === '^C') return 'SIGINT';
  if (v === '^\\') return 'SIGQUIT';
  const name = v.startsWith('SIG') ? v : `SIG${v}`;
  return (['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGHUP', 'SIGKILL', 'SIGUSR1', 'SIGUSR2'] as const).find((s) => s === name) ?? 'SIGTERM';
}

/**
 * The invocation for the shell, each `{{VARIABLE}}` (and `{{env.VARIABLE}}`) turned into `${VARIABLE}`,
 * as a Wings entrypoint does: the shell expands the value from the environment and never parses it,
 * so a user's value holding `$(…)`, `;` or a newline stays text (attacks T-LEAK-3).
 */
export function startupCommand(invocation: string): string {
  return invocation.replace(/\{\{\s*(?:env\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => `\${${name}}`);
}

/** What the process sees: the egg's variables and Wings' own, nothing of the panel's environment. */
export function processEnvironment(configuration: ServerConfiguration): Record<string, string> {
  const { environment, build, allocations } = configuration.settings;
  return {
    ...environment,
    STARTUP: configuration.settings.invocation,
    SERVER_MEMORY: String(build.memory_limit),
    SERVER_IP: allocations.default.ip,
    SERVER_PORT: String(allocations.default.port),
    P_SERVER_UUID: configuration.settings.uuid,
    TZ: environment.TZ ?? 'UTC',
    HOME: CONTAINER_HOME,
    PATH: '/usr/local/bin:/usr/bin:/bin',
  };
}

export class LocalProcesses implements ProcessCapability, StatsCapability, Pick<ConsoleCapability, 'history' | 'subscribe'> {
  private readonly servers = new Map<string, ServerProcess>();
  private readonly now: () => number;
  private readonly stopTimeoutMs: number;
  private readonly historyLines: number;
  private readonly crashRestartAfterMs: number;
  private readonly pidsLimit: number;
  private readonly statsIntervalMs: number;

  constructor(private readonly options: ProcessOptions) {
    this.now = options.now ?? Date.now;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
    this.historyLines = options.historyLines ?? 150;
    this.crashRestartAfterMs = options.crashRestartAfterMs ?? 60_000;
    this.pidsLimit = options.pidsLimit ?? 512;
    this.statsIntervalMs = options.statsIntervalMs ?? 1000;
  }

  state(server: string): ProcessState {
    return this.servers.get(server)?.state ?? 'offline';
  }

  async power(server: string, action: PowerAction): Promise<void> {
    await this.options.powerLock(server, async () => {
      const proc = this.of(server);
      if (action === 'start') await this.start(server, proc);
      else if (action === 'stop') await this.stop(server, proc);
      else if (action === 'kill') await this.kill(proc);
      else {
        await this.stop(server, proc).catch((error: unknown) => {
          if (!(error instanceof DaemonError && error.kind === 'offline')) throw error;
        });
        await this.start(server, proc);
      }
    });
  }

  async command(server: string, line: string): Promise<void> {
    const proc = this.of(server);
    if (!proc.running || proc.state === 'offline') throw new DaemonError('offline', 'Server must be online in order to send commands.');
    proc.running.child.stdin.write(`${line}\n`);
  }

  history(server: string, lines: number): Promise<string[]> {
    const proc = this.of(server);
    if (proc.history.length === 0) this.loadHistory(server, proc);
    return Promise.resolve(proc.history.slice(-lines));
  }

  subscribe(server: string, listener: (event: ConsoleEvent) => void): () => void {
    const proc = this.of(server);
    proc.listeners.add(listener);
    this.syncTicker(server, proc);
    return () => {
      proc.listeners.delete(listener);
      this.syncTicker(server, proc);
    };
  }

  /** How many servers' stats tickers run (none once every server is offline). */
  get tickers(): number {
    return [...this.servers.values()].filter((proc) => proc.ticker !== null).length;
  }

  /** What the server uses now: memory and CPU of every process in its sandbox, its disk, its uptime. */
  async resources(server: string): Promise<SocketStats> {
    const proc = this.of(server);
    const configuration = await this.options.configuration(server);
    const now = this.now();
    let memory = 0;
    let cpu = 0;
    const running = proc.running;
    if (running?.child.pid !== undefined) {
      const pids = [running.child.pid, ...descendants(running.child.pid)];
      memory = pids.reduce((sum, pid) => sum + residentBytes(pid), 0);
      const last = proc.cpuSample;
      if (last && now - last.at < MIN_CPU_WINDOW_MS) {
        // Asked again right after the ticker: a few clock ticks would give a coarse figure.
        cpu = last.cpu;
      } else {
        const ticks = pids.reduce((sum, pid) => sum + cpuTicks(pid), 0);
        // Since the last sample, or since the start for the first one; 100 is one core.
        const since = last ?? { ticks: 0, at: running.startedAt };
        const seconds = (now - since.at) / 1000;
        if (seconds > 0) cpu = Math.max(0, ((ticks - since.ticks) / TICKS_PER_SECOND / seconds) * 100);
        proc.cpuSample = { ticks, at: now, cpu };
      }
    } else proc.cpuSample = null;
    if (this.options.diskBytes && (!proc.disk || now - proc.disk.at >= DISK_FIGURE_MS)) {
      proc.disk = { bytes: await this.options.diskBytes(server).catch(() => proc.disk?.bytes ?? 0), at: now };
    }
    return {
      memory_bytes: memory,
      memory_limit_bytes: Math.max(0, configuration.settings.build.memory_limit) * MIB,
      cpu_absolute: Math.round(cpu * 1000) / 1000,
      // The sandbox shares the host's network: what one server sends is not told apart.
      network: { rx_bytes: 0, tx_bytes: 0 },
      uptime: running ? now - running.startedAt : 0,
      state: proc.state,
      disk_bytes: proc.disk?.bytes ?? 0,
    };
  }

  /**
   * Ends the server's process outside the power lock, for whoever holds the server exclusively (a
   * reinstall stops it, a delete kills it); nothing when it does not run.
   */
  async halt(server: string, how: 'stop' | 'kill'): Promise<void> {
    const proc = this.servers.get(server);
    if (!proc?.running) return;
    if (how === 'kill') await this.kill(proc);
    else await this.stop(server, proc);
  }

  /**
   * Stops every running server (panel shutdown): their stop commands, then kills past the timeout.
   * Which ones ran is written down first, for `resume` at the next start.
   */
  async stopAll(): Promise<void> {
    const running = [...this.servers.entries()].filter(([, proc]) => proc.running);
    try {
      fs.mkdirSync(this.options.logDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(this.runningFile(), JSON.stringify(running.map(([server]) => server)));
    } catch (error) {
      this.options.log('could not write down the running servers', error);
    }
    await Promise.all(running.map(([server, proc]) => this.stop(server, proc).catch(() => undefined)));
  }

  /**
   * At start: forgets which servers ran when the daemon last stopped, and with `restart` starts
   * them again (servers are not started behind their owners' backs unless configured). Returns the
   * servers started.
   */
  async resume(restart: boolean): Promise<string[]> {
    let servers: string[] = [];
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.runningFile(), 'utf8'));
      if (Array.isArray(parsed)) servers = parsed.filter((s): s is string => typeof s === 'string');
    } catch {
      return []; // none written (a first start, or the last one ended without a shutdown)
    }
    fs.rmSync(this.runningFile(), { force: true });
    if (!restart) return [];
    const started: string[] = [];
    for (const server of servers) {
      try {
        await this.power(server, 'start');
        started.push(server);
      } catch (error) {
        this.options.log(`could not start ${server} again`, error);
      }
    }
    return started;
  }

  private of(server: string): ServerProcess {
    let proc = this.servers.get(server);
    if (!proc) this.servers.set(server, (proc = new ServerProcess()));
    return proc;
  }

  private async start(server: string, proc: ServerProcess): Promise<void> {
    if (proc.state !== 'offline') return; // Wings: starting what runs changes nothing
    const configuration = await this.options.configuration(server);
    if (configuration.settings.suspended) throw new DaemonError('conflict', 'This server is suspended.');
    if (!this.options.bwrap) {
      this.daemonMessage(proc, MISSING_BWRAP);
      throw new DaemonError('unavailable', MISSING_BWRAP);
    }
    const env = processEnvironment(configuration);
    const command = startupCommand(configuration.settings.invocation);
    const { memory_limit, oom_disabled } = configuration.settings.build;
    const memoryLimit = oom_disabled ? 0 : Math.max(0, memory_limit) * MIB;
    this.setState(server, proc, 'starting');
    this.daemonMessage(proc, 'Starting the server in its sandbox.');
    const hard = this.options.cgroups ?? true;
    const cgroups = ServerCgroups.create(server, {
      memoryBytes: hard && memoryLimit > 0 ? hardMemoryLimit(memoryLimit) : 0,
      pids: hard ? this.pidsLimit : 0,
    });
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawnSandboxed({ volume: this.options.volumePath(server), command, env, cgroupProcs: cgroups.procsFiles() }, this.options.bwrap);
    } catch (error) {
      cgroups.remove();
      this.setState(server, proc, 'offline');
      throw error;
    }
    const done = configuration.process_configuration.startup.done.filter((d) => d !== '');
    const running: Running = {
      child,
      startedAt: this.now(),
      stopping: false,
      exited: new Promise((resolve) => child.on('close', () => resolve())),
      cgroups,
      memoryLimit,
    };
    proc.running = running;
    proc.cpuSample = null; // the last run's figures say nothing of this one
    this.syncTicker(server, proc);
    const onLine = (line: string) => {
      this.output(server, proc, line);
      if (proc.state === 'starting' && done.some((d) => line.includes(d))) this.setState(server, proc, 'running');
    };
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
    }
    child.on('error', (error) => this.options.log(`the process of ${server} failed`, error));
    child.stdin.on('error', () => undefined); // writing to a process that just ended
    void running.exited.then(() => this.exited(server, proc, running));
    if (done.length === 0) this.setState(server, proc, 'running');
  }

  private async stop(server: string, proc: ServerProcess): Promise<void> {
    const running = proc.running;
    if (!running) throw new DaemonError('offline', 'The server is not running.');
    if (proc.state !== 'stopping') {
      running.stopping = true;
      this.setState(server, proc, 'stopping');
      const { stop } = (await this.options.configuration(server)).process_configuration;
      if (stop.type === 'signal') signalTree(running.child, stopSignal(stop.value));
      else running.child.stdin.write(`${stop.value}\n`);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.stopTimeoutMs)));
    const late = await Promise.race([running.exited.then(() => false), timedOut]);
    clearTimeout(timer);
    if (late) {
      this.daemonMessage(proc, 'The server did not stop in time: killing it.');
      await this.kill(proc);
    }
  }

  private async kill(proc: ServerProcess): Promise<void> {
    const running = proc.running;
    if (!running) return;
    running.stopping = true;
    // bwrap dies with SIGKILL, and everything in the sandbox with it (--die-with-parent).
    running.child.kill('SIGKILL');
    await running.exited;
  }

  private exited(server: string, proc: ServerProcess, running: Running): void {
    if (proc.running !== running) return;
    proc.running = null;
    // The kernel's own kill at the hard limit (before the watchdog saw it) is a memory stop too.
    const killedForMemory = !running.stopping && running.cgroups.oomKilled();
    running.cgroups.remove();
    const crashed = !running.stopping && !killedForMemory;
    const ranFor = this.now() - running.startedAt;
    this.setState(server, proc, 'offline');
    this.syncTicker(server, proc);
    // One last figure, all zeros, so a chart does not keep the last running one.
    if (proc.listeners.size > 0) {
      void this.resources(server)
        .then((stats) => this.emit(proc, { type: 'stats', stats }))
        .catch((error: unknown) => this.options.log(`could not read the stats of ${server}`, error));
    }
    if (killedForMemory) this.daemonMessage(proc, this.memoryMessage(running.memoryLimit));
    if (!crashed) return;
    const code = running.child.exitCode;
    this.daemonMessage(proc, `The server has crashed (exit code ${code ?? running.child.signalCode ?? 'unknown'}).`);
    // Restarted only when it had run a while, so one that crashes at once is not restarted in a loop.
    if (ranFor >= this.crashRestartAfterMs) {
      this.daemonMessage(proc, 'Restarting it, as it had run for over a minute.');
      void this.power(server, 'start').catch((error: unknown) => this.options.log(`could not restart ${server} after a crash`, error));
    } else {
      this.daemonMessage(proc, 'It is not restarted: it crashed within a minute of starting.');
    }
  }

  /** Runs the server's ticker while it runs and someone listens or its memory is watched; stops it otherwise. */
  private syncTicker(server: string, proc: ServerProcess): void {
    const running = proc.running;
    const wanted = running !== null && (proc.listeners.size > 0 || running.memoryLimit > 0);
    if (wanted && !proc.ticker) {
      proc.ticker = setInterval(() => void this.tick(server, proc), this.statsIntervalMs);
      proc.ticker.unref();
    } else if (!wanted && proc.ticker) {
      clearInterval(proc.ticker);
      proc.ticker = null;
    }
  }

  /** One figure for the listeners, and the watchdog: past its memory limit, the server is killed. */
  private async tick(server: string, proc: ServerProcess): Promise<void> {
    const running = proc.running;
    if (!running || proc.ticking) return;
    proc.ticking = true;
    try {
      const stats = await this.resources(server);
      if (proc.running !== running) return;
      this.emit(proc, { type: 'stats', stats });
      if (running.memoryLimit > 0 && stats.memory_bytes > running.memoryLimit && !running.stopping) {
        this.daemonMessage(proc, this.memoryMessage(running.memoryLimit));
        await this.kill(proc);
      }
    } catch (error) {
      this.options.log(`could not read the stats of ${server}`, error);
    } finally {
      proc.ticking = false;
    }
  }

  private memoryMessage(limit: number): string {
    return `Server is exceeding its memory limit of ${Math.round(limit / MIB)} MiB, stopping it.`;
  }

  private setState(server: string, proc: ServerProcess, state: ProcessState): void {
    if (proc.state === state) return;
    proc.state = state;
    this.emit(proc, { type: 'status', state });
  }

  /** A line of the server's install script: live only, to those who may see installs (Wings). */
  installOutput(server: string, line: string): void {
    this.emit(this.of(server), { type: 'install output', line: line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line });
  }

  /** What another part of the daemon tells the server's consoles (a backup's progress and end): live only. */
  announce(server: string, event: ConsoleEvent): void {
    this.emit(this.of(server), event);
  }

  /** What the daemon says about the server: live only, never in its console log (as Wings). */
  private daemonMessage(proc: ServerProcess, line: string): void {
    this.emit(proc, { type: 'daemon message', line });
  }

  private output(server: string, proc: ServerProcess, raw: string): void {
    const line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw;
    proc.history.push(line);
    if (proc.history.length > this.historyLines) proc.history.splice(0, proc.history.length - this.historyLines);
    proc.logPending += `${line}\n`;
    if (!proc.logWriting) this.flushLog(server, proc);
    this.emit(proc, { type: 'console output', line });
  }

  /** Appends what is pending to the log file, one write at a time so lines stay in order. */
  private flushLog(server: string, proc: ServerProcess): void {
    const text = proc.logPending;
    proc.logPending = '';
    proc.logWriting = true;
    const done = () => {
      proc.logWriting = false;
      if (proc.logPending !== '') this.flushLog(server, proc);
    };
    fs.appendFile(this.logFile(server), text, (error) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        fs.mkdir(this.options.logDir, { recursive: true, mode: 0o700 }, () => fs.appendFile(this.logFile(server), text, done));
      } else done();
    });
  }

  private emit(proc: ServerProcess, event: ConsoleEvent): void {
    for (const listener of proc.listeners) listener(event);
  }

  private logFile(server: string): string {
    return path.join(this.options.logDir, `${server}.log`);
  }

  private runningFile(): string {
    return path.join(this.options.logDir, RUNNING_FILE);
  }

  /** After a panel restart: the tail of the log file. */
  private loadHistory(server: string, proc: ServerProcess): void {
    let text: string;
    try {
      const fd = fs.openSync(this.logFile(server), 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const length = Math.min(size, this.historyLines * MAX_LINE);
        const buf = Buffer.alloc(length);
        fs.readSync(fd, buf, 0, length, size - length);
        text = buf.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return;
    }
    proc.history.push(
      ...text
        .split('\n')
        .filter((l) => l !== '')
        .slice(-this.historyLines),
    );
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

/**
 * Sends `signal` to the program inside the sandbox: every process below bwrap that is not bwrap
 * itself (bwrap would die of it and take the program with it before it could shut down cleanly).
 */
function signalTree(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  for (const pid of descendants(child.pid)) {
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
