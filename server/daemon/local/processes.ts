import fs from 'node:fs';
import path from 'node:path';
import type { ProcessState, SocketStats } from '../../../src/contract';
import type { ConsoleCapability, ConsoleEvent, PowerAction, ProcessCapability, ServerConfiguration, StatsCapability } from '../capabilities';
import { DaemonError } from '../types';
import { ConsoleLog } from './console-log';
import { SandboxedProcess } from './environment';
import type { DaemonLog } from './events';
import { MAX_LINE } from './line-reader';
import { processEnvironment, startupCommand, stopSignal } from './process-config';
import { MISSING_BWRAP } from './sandbox';

/*
 * Servers' power, as Wings runs it: the startup command (the egg's invocation with its
 * `{{VARIABLE}}`s filled in) in the server's environment (`environment.ts`: the sandbox with its
 * limits), its volume as the working directory. States
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
  /** A server's console log file is rotated past this many bytes. */
  logMaxBytes?: number;
}

/** How long a disk figure is shown before the volume is measured again. */
const DISK_FIGURE_MS = 10_000;
/**
 * A running server with a disk limit is measured this often at least, so its own writes are caught
 * within seconds (Wings checks every 150 s by default) — but never more than a tenth of the time, a
 * volume of many files taking long to measure.
 */
const DISK_CHECK_MS = 2_000;
const MIB = 1024 * 1024;
/** The servers that ran when the daemon stopped, in the log dir, for `resume`. */
const RUNNING_FILE = 'running.json';

interface Running {
  env: SandboxedProcess;
  /** Set by stop and kill: the exit that follows is not a crash. */
  stopping: boolean;
  /** Bytes the watchdog allows (0: not watched: no limit, or the OOM killer disabled). */
  memoryLimit: number;
  /** Bytes its volume may hold (0: no limit); past it the server is stopped. */
  diskLimit: number;
}

class ServerProcess {
  state: ProcessState = 'offline';
  /** The last disk figure, when it was taken, and how long taking it took. */
  disk: { bytes: number; at: number; took: number } | null = null;
  running: Running | null = null;
  /** Takes the stats every second while it runs and someone listens or its memory is watched. */
  ticker: NodeJS.Timeout | null = null;
  ticking = false;
  readonly listeners = new Set<(event: ConsoleEvent) => void>();
  constructor(readonly log: ConsoleLog) {}
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
    proc.running.env.write(line);
  }

  history(server: string, lines: number): Promise<string[]> {
    return Promise.resolve(this.of(server).log.tail(lines));
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
    const running = proc.running;
    const usage = running?.env.usage(now) ?? { memoryBytes: 0, cpuPercent: 0 };
    const every = running && running.diskLimit > 0 ? Math.max(DISK_CHECK_MS, 10 * (proc.disk?.took ?? 0)) : DISK_FIGURE_MS;
    if (!proc.disk || now - proc.disk.at >= every) await this.measureDisk(server, proc);
    return {
      memory_bytes: usage.memoryBytes,
      memory_limit_bytes: Math.max(0, configuration.settings.build.memory_limit) * MIB,
      cpu_absolute: Math.round(usage.cpuPercent * 1000) / 1000,
      // The sandbox shares the host's network: what one server sends is not told apart.
      network: { rx_bytes: 0, tx_bytes: 0 },
      uptime: running ? now - running.env.startedAt : 0,
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
    if (!proc) {
      proc = new ServerProcess(new ConsoleLog(path.join(this.options.logDir, `${server}.log`), this.historyLines, this.options.logMaxBytes));
      this.servers.set(server, proc);
    }
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
    const environment = processEnvironment(configuration);
    const command = startupCommand(configuration.settings.invocation);
    const { memory_limit, oom_disabled } = configuration.settings.build;
    // The hard limit holds whatever the OOM setting; with the OOM killer disabled the watchdog does not kill.
    const memoryLimit = Math.max(0, memory_limit) * MIB;
    const watched = oom_disabled ? 0 : memoryLimit;
    const diskLimit = Math.max(0, configuration.settings.build.disk_space) * MIB;
    // Wings: a server over its disk limit does not start (its files can still be deleted).
    if (diskLimit > 0 && (await this.measureDisk(server, proc)) > diskLimit) {
      const message = `This server uses ${mib(proc.disk?.bytes ?? 0)} MiB of its ${mib(diskLimit)} MiB disk limit: delete files before starting it.`;
      this.daemonMessage(proc, message);
      throw new DaemonError('no_space', message);
    }
    this.setState(server, proc, 'starting');
    this.daemonMessage(proc, 'Starting the server in its sandbox.');
    const hard = this.options.cgroups ?? true;
    const done = configuration.process_configuration.startup.done.filter((d) => d !== '');
    let env: SandboxedProcess;
    try {
      env = SandboxedProcess.start({
        server,
        spec: { volume: this.options.volumePath(server), command, env: environment },
        bwrap: this.options.bwrap,
        limits: { memoryBytes: hard ? memoryLimit : 0, pids: hard ? this.pidsLimit : 0 },
        startedAt: this.now(),
        onLine: (line) => {
          this.output(proc, line);
          if (proc.state === 'starting' && done.some((d) => line.includes(d))) this.setState(server, proc, 'running');
        },
        onError: (error) => this.options.log(`the process of ${server} failed`, error),
      });
    } catch (error) {
      this.setState(server, proc, 'offline');
      throw error;
    }
    const running: Running = { env, stopping: false, memoryLimit: watched, diskLimit };
    proc.running = running;
    this.syncTicker(server, proc);
    void env.exited.then(() => this.exited(server, proc, running));
    if (done.length === 0) this.setState(server, proc, 'running');
  }

  private async stop(server: string, proc: ServerProcess): Promise<void> {
    const running = proc.running;
    if (!running) throw new DaemonError('offline', 'The server is not running.');
    if (proc.state !== 'stopping') {
      running.stopping = true;
      this.setState(server, proc, 'stopping');
      const { stop } = (await this.options.configuration(server)).process_configuration;
      if (stop.type === 'signal') running.env.signal(stopSignal(stop.value));
      else running.env.write(stop.value);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.stopTimeoutMs)));
    const late = await Promise.race([running.env.exited.then(() => false), timedOut]);
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
    await running.env.kill();
  }

  private exited(server: string, proc: ServerProcess, running: Running): void {
    if (proc.running !== running) return;
    proc.running = null;
    // The kernel's own kill at the hard limit (before the watchdog saw it) is a memory stop too.
    const killedForMemory = !running.stopping && running.env.oomKilled();
    const crashed = !running.stopping && !killedForMemory;
    const ranFor = this.now() - running.env.startedAt;
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
    this.daemonMessage(proc, `The server has crashed (exit code ${running.env.exitDescription()}).`);
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
    const wanted = running !== null && (proc.listeners.size > 0 || running.memoryLimit > 0 || running.diskLimit > 0);
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
      } else if (running.diskLimit > 0 && stats.disk_bytes > running.diskLimit && !running.stopping) {
        // Its own writes took it past the limit (the file manager and SFTP refuse such writes).
        this.daemonMessage(proc, `Server is exceeding its disk limit of ${mib(running.diskLimit)} MiB, stopping it.`);
        await this.stop(server, proc);
      }
    } catch (error) {
      this.options.log(`could not read the stats of ${server}`, error);
    } finally {
      proc.ticking = false;
    }
  }

  private memoryMessage(limit: number): string {
    return `Server is exceeding its memory limit of ${mib(limit)} MiB, stopping it.`;
  }

  /** Measures the volume now (the last figure when it cannot be measured). */
  private async measureDisk(server: string, proc: ServerProcess): Promise<number> {
    if (!this.options.diskBytes) return 0;
    const at = this.now();
    const started = performance.now();
    const bytes = await this.options.diskBytes(server).catch(() => proc.disk?.bytes ?? 0);
    proc.disk = { bytes, at, took: performance.now() - started };
    return bytes;
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

  private output(proc: ServerProcess, line: string): void {
    proc.log.append(line);
    this.emit(proc, { type: 'console output', line });
  }

  private emit(proc: ServerProcess, event: ConsoleEvent): void {
    for (const listener of proc.listeners) listener(event);
  }

  private runningFile(): string {
    return path.join(this.options.logDir, RUNNING_FILE);
  }
}

const mib = (bytes: number): number => Math.round(bytes / MIB);
