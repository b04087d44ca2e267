import fs from 'node:fs';
import path from 'node:path';
import type { ProcessState, SocketStats } from '../../../src/contract';
import type { ConsoleCapability, ConsoleEvent, PowerAction, ProcessCapability, ServerConfiguration, StatsCapability } from '../capabilities';
import { DaemonError } from '../types';
import { ConsoleLog } from './console-log';
import { cgroupRoots, type CgroupRoots } from './cgroup-roots';
import type { DaemonLog } from './events';
import type { HostUser } from './host-user';
import { MAX_LINE } from './line-reader';
import { networkOptions, type NetworkOptions } from './network';
import type { PowerContext } from './power-context';
import { ServerProcess } from './server-process';

/*
 * The node's servers' processes, as Wings' manager holds its servers: one `ServerProcess` each
 * (`server-process.ts`: its power states, crash handling and watchdog, on its environment in
 * `environment.ts`), power actions one at a time per server under its power lock, and the
 * daemon's start and shutdown (which servers ran, to start them again).
 *
 * Each server's recent console output is kept (a bounded number of lines) and appended to a
 * bounded log file in the data dir, outside the volume (`console-log.ts`), so the console replays
 * after a reload or a restart.
 */

export interface ProcessOptions {
  /** Where console logs go (`<dir>/<uuid>.log`): the data dir, never a volume. */
  logDir: string;
  /** The server's configuration, as the daemon holds it; `fresh`: fetched from the panel first (before a start). */
  configuration: (server: string, fresh?: boolean) => Promise<ServerConfiguration>;
  /** The server's volume on the host. */
  volumePath: (server: string) => string;
  /** The server's power lock: power actions run one at a time, never during a restore or reinstall. */
  powerLock: <T>(server: string, fn: () => Promise<T>) => Promise<T>;
  /** The sandbox program; null when missing (nothing starts then). */
  bwrap: string | null;
  /** Servers' networks: pasta found on PATH by default, no host ports, the host's network never shared. */
  network?: Partial<NetworkOptions>;
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
  /** Where servers' groups are made; this machine's by default (tests give others). */
  cgroupRoots?: CgroupRoots;
  /** Start servers where cgroups cannot limit them (PANEL_ALLOW_UNLIMITED_SERVERS; false: they are refused). */
  allowUnlimited?: boolean;
  /** A server's console log file is rotated past this many bytes. */
  logMaxBytes?: number;
  /** The host user servers run as (`host-user.ts`); the daemon's own when absent. */
  hostUser?: HostUser | null;
}

/** The servers that ran when the daemon stopped, in the log dir, for `resume`. */
const RUNNING_FILE = 'running.json';

export class LocalProcesses implements ProcessCapability, StatsCapability, Pick<ConsoleCapability, 'history' | 'subscribe'> {
  private readonly servers = new Map<string, ServerProcess>();
  private readonly ctx: PowerContext;
  private readonly historyLines: number;

  constructor(private readonly options: ProcessOptions) {
    this.historyLines = options.historyLines ?? 150;
    this.ctx = {
      configuration: options.configuration,
      volumePath: options.volumePath,
      bwrap: options.bwrap,
      network: networkOptions(options.network),
      log: options.log,
      now: options.now ?? Date.now,
      stopTimeoutMs: options.stopTimeoutMs ?? 30_000,
      crashRestartAfterMs: options.crashRestartAfterMs ?? 60_000,
      pidsLimit: options.pidsLimit ?? 512,
      statsIntervalMs: options.statsIntervalMs ?? 1000,
      cgroups: options.cgroups ?? true,
      cgroupRoots: () => options.cgroupRoots ?? cgroupRoots(),
      allowUnlimited: options.allowUnlimited ?? false,
      diskBytes: options.diskBytes,
      hostUser: options.hostUser ?? null,
      restart: (server) => this.power(server, 'start'),
    };
  }

  state(server: string): ProcessState {
    return this.servers.get(server)?.state ?? 'offline';
  }

  async power(server: string, action: PowerAction): Promise<void> {
    // Kill overrides whatever power action runs (a stop waiting out its timeout, a start), as in
    // Wings, where terminate never waits for the power lock.
    if (action === 'kill') return this.of(server).kill();
    // A stop while a start is still making the sandbox (and holds the lock) waits for the process, then stops it.
    const proc = this.of(server);
    if (action === 'stop' && proc.state === 'starting' && !proc.isRunning) return proc.stop();
    await this.options.powerLock(server, async () => {
      const proc = this.of(server);
      if (action === 'start') await proc.start();
      else if (action === 'stop') await proc.stop();
      else {
        await proc.stop().catch((error: unknown) => {
          if (!(error instanceof DaemonError && error.kind === 'offline')) throw error;
        });
        await proc.start();
      }
    });
  }

  async command(server: string, line: string): Promise<void> {
    this.of(server).command(line);
  }

  history(server: string, lines: number): Promise<string[]> {
    return Promise.resolve(this.of(server).log.tail(lines));
  }

  subscribe(server: string, listener: (event: ConsoleEvent) => void): () => void {
    return this.of(server).subscribe(listener);
  }

  /** How many servers' stats tickers run (none once every server is offline). */
  get tickers(): number {
    return [...this.servers.values()].filter((proc) => proc.isTicking).length;
  }

  resources(server: string): Promise<SocketStats> {
    return this.of(server).resources();
  }

  /**
   * Ends the server's process outside the power lock, for whoever holds the server exclusively (a
   * reinstall stops it, a delete kills it); nothing when it does not run.
   */
  async halt(server: string, how: 'stop' | 'kill'): Promise<void> {
    const proc = this.servers.get(server);
    if (!proc?.isRunning) return;
    if (how === 'kill') await proc.kill();
    else await proc.stop();
  }

  /**
   * Stops every running server (panel shutdown): their stop commands, then kills past the timeout.
   * Which ones ran is written down first, for `resume` at the next start.
   */
  /** How many servers have a process now. */
  get runningCount(): number {
    return [...this.servers.values()].filter((proc) => proc.isRunning).length;
  }

  async stopAll(): Promise<void> {
    const running = [...this.servers.entries()].filter(([, proc]) => proc.isRunning);
    try {
      fs.mkdirSync(this.options.logDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(this.runningFile(), JSON.stringify(running.map(([server]) => server)));
    } catch (error) {
      this.options.log('could not write down the running servers', error);
    }
    await Promise.all(running.map(([, proc]) => proc.stop().catch(() => undefined)));
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
        // Said where its users look, in its console history: a start nobody there asked for.
        this.of(server).note('The panel was restarted: this server was running, so it was started again.');
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
      const log = new ConsoleLog(path.join(this.options.logDir, `${server}.log`), this.historyLines, this.options.logMaxBytes);
      proc = new ServerProcess(server, log, this.ctx);
      this.servers.set(server, proc);
    }
    return proc;
  }

  /** A line of the server's install script: live only, to those who may see installs (Wings). */
  installOutput(server: string, line: string): void {
    this.of(server).emit({ type: 'install output', line: line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line });
  }

  /** What another part of the daemon tells the server's consoles (a backup's progress and end): live only. */
  announce(server: string, event: ConsoleEvent): void {
    this.of(server).emit(event);
  }

  private runningFile(): string {
    return path.join(this.options.logDir, RUNNING_FILE);
  }
}
