import type { ProcessState, SocketStats } from '../../../src/contract';
import type { ConsoleEvent } from '../capabilities';
import { DaemonError } from '../types';
import type { ConsoleLog } from './console-log';
import { SandboxedProcess } from './environment';
import { DiskMeter } from './disk-meter';
import { ownVolume } from './host-user';
import { allocationsOf } from './network';
import type { PowerContext } from './power-context';
import { processEnvironment, startupCommand, stopSignal } from './process-config';
import { mib, MIB, planStart } from './start-checks';

/*
 * One server's power, as Wings' server package runs it on top of its environment: the states
 * `offline` → `starting` → `running` (once an egg's "done" line appears, at once when it has
 * none) → `stopping` → `offline`; stop by the egg's stop command or signal, then a kill past the
 * timeout; a crash said and restarted once if it had run a minute; and the watchdog. While it
 * runs, its stats are taken every second when someone listens or a limit is watched: past its
 * memory limit it is killed (unless its OOM killer is disabled; the hard cgroup limit holds
 * either way), past its disk limit by its own writes it is stopped. Those stops, like the
 * kernel's own memory kill, are not crashes. What the daemon says (`daemon message`) is live only,
 * never in the console log.
 */

interface Running {
  env: SandboxedProcess;
  /** Set by stop and kill: the exit that follows is not a crash. */
  stopping: boolean;
  /** Bytes the watchdog allows (0: not watched: no limit, or the OOM killer disabled). */
  memoryLimit: number;
  /** Bytes its volume may hold (0: no limit); past it the server is stopped. */
  diskLimit: number;
}

export class ServerProcess {
  state: ProcessState = 'offline';
  readonly listeners = new Set<(event: ConsoleEvent) => void>();
  private running: Running | null = null;
  /** A kill or stop that came while a start was under way, before its process existed. */
  private wanted: 'kill' | 'stop' | null = null;
  private readonly disk: DiskMeter;
  private ticker: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(
    private readonly server: string,
    readonly log: ConsoleLog,
    private readonly ctx: PowerContext,
  ) {
    const { diskBytes } = ctx;
    this.disk = new DiskMeter(diskBytes && (() => diskBytes(server)), ctx.now);
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  get isTicking(): boolean {
    return this.ticker !== null;
  }

  async start(): Promise<void> {
    if (this.state !== 'offline') return; // Wings: starting what runs changes nothing
    const { ctx, server } = this;
    const configuration = await ctx.configuration(server, true);
    const { bwrap, roots, memoryLimit, diskLimit } = await planStart(ctx, configuration, this.disk, (line) => this.daemonMessage(line));
    // The hard limit holds whatever the OOM setting; with the OOM killer disabled the watchdog does not kill.
    const { oom_disabled, cpu_limit, io_weight } = configuration.settings.build;
    this.wanted = null;
    this.setState('starting');
    this.daemonMessage('Starting the server in its sandbox.');
    const volume = ctx.volumePath(server);
    if (ctx.hostUser) {
      try {
        await ownVolume(volume, ctx.hostUser);
      } catch (error) {
        this.setState('offline');
        throw error;
      }
    }
    const done = configuration.process_configuration.startup.done.filter((d) => d !== '');
    let env: SandboxedProcess;
    try {
      env = await SandboxedProcess.start({
        server,
        spec: {
          volume,
          command: startupCommand(configuration.settings.invocation),
          env: processEnvironment(configuration),
          hostUser: ctx.hostUser,
        },
        bwrap,
        network: ctx.network,
        allocations: allocationsOf(configuration.settings.allocations),
        limits: roots
          ? { memoryBytes: memoryLimit, pids: ctx.pidsLimit, cpuPercent: Math.max(0, cpu_limit), ioWeight: Math.max(0, io_weight) }
          : { memoryBytes: 0, pids: 0 },
        roots: roots ?? undefined,
        startedAt: ctx.now(),
        onLine: (line) => {
          this.output(line);
          if (this.state === 'starting' && done.some((d) => line.includes(d))) this.setState('running');
        },
        onError: (error) => ctx.log(`the process of ${server} failed`, error),
      });
    } catch (error) {
      if (error instanceof DaemonError) this.daemonMessage(error.message);
      this.setState('offline');
      throw error;
    }
    const running: Running = { env, stopping: false, memoryLimit: oom_disabled ? 0 : memoryLimit, diskLimit };
    this.running = running;
    this.syncTicker();
    void env.exited.then(() => this.exited(running));
    if (done.length === 0) this.setState('running');
    if (this.wanted === 'kill') await this.kill();
    else if (this.wanted === 'stop') void this.stop().catch((error: unknown) => ctx.log(`could not stop ${server}`, error));
  }

  async stop(): Promise<void> {
    const running = this.running;
    // A start under way: what it starts is stopped as soon as it exists.
    if (!running && this.state === 'starting') this.wanted ??= 'stop';
    if (!running && this.state === 'starting') return;
    if (!running) throw new DaemonError('offline', 'The server is not running.');
    if (this.state !== 'stopping') {
      running.stopping = true;
      this.setState('stopping');
      const { stop } = (await this.ctx.configuration(this.server)).process_configuration;
      if (stop.type === 'signal') running.env.signal(stopSignal(stop.value));
      else running.env.write(stop.value);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.ctx.stopTimeoutMs)));
    const late = await Promise.race([running.env.exited.then(() => false), timedOut]);
    clearTimeout(timer);
    if (late) {
      this.daemonMessage('The server did not stop in time: killing it.');
      await this.kill();
    }
  }

  async kill(): Promise<void> {
    const running = this.running;
    // A start under way: what it starts is killed as soon as it exists.
    if (!running && this.state === 'starting') this.wanted = 'kill';
    if (!running) return;
    this.wanted = null;
    running.stopping = true;
    await running.env.kill();
  }

  command(line: string): void {
    if (!this.running || this.state === 'offline') throw new DaemonError('offline', 'Server must be online in order to send commands.');
    this.running.env.write(line);
  }

  subscribe(listener: (event: ConsoleEvent) => void): () => void {
    this.listeners.add(listener);
    this.syncTicker();
    return () => {
      this.listeners.delete(listener);
      this.syncTicker();
    };
  }

  /** What the server uses now: memory and CPU of every process in its sandbox, its disk, its uptime. */
  async resources(): Promise<SocketStats> {
    const configuration = await this.ctx.configuration(this.server);
    const now = this.ctx.now();
    const running = this.running;
    const usage = running?.env.usage(now) ?? { memoryBytes: 0, cpuPercent: 0 };
    const diskBytes = await this.disk.figure(running !== null && running.diskLimit > 0);
    return {
      memory_bytes: usage.memoryBytes,
      memory_limit_bytes: Math.max(0, configuration.settings.build.memory_limit) * MIB,
      cpu_absolute: Math.round(usage.cpuPercent * 1000) / 1000,
      network: running?.env.networkCounters() ?? { rx_bytes: 0, tx_bytes: 0 },
      uptime: running ? now - running.env.startedAt : 0,
      state: this.state,
      disk_bytes: diskBytes,
    };
  }

  emit(event: ConsoleEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** What the daemon says about the server: live only, never in its console log (as Wings). */
  daemonMessage(line: string): void {
    this.emit({ type: 'daemon message', line });
  }

  /** A line from the panel kept in the console history (unlike a daemon message, which is live only). */
  note(line: string): void {
    this.output(`[Panel] ${line}`);
  }

  private output(line: string): void {
    this.log.append(line);
    this.emit({ type: 'console output', line });
  }

  private setState(state: ProcessState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit({ type: 'status', state });
  }

  private exited(running: Running): void {
    if (this.running !== running) return;
    this.running = null;
    // The kernel's own kill at the hard limit (before the watchdog saw it) is a memory stop too.
    const killedForMemory = !running.stopping && running.env.oomKilled();
    const crashed = !running.stopping && !killedForMemory;
    const ranFor = this.ctx.now() - running.env.startedAt;
    this.setState('offline');
    this.syncTicker();
    // One last figure, all zeros, so a chart does not keep the last running one.
    if (this.listeners.size > 0) {
      void this.resources()
        .then((stats) => this.emit({ type: 'stats', stats }))
        .catch((error: unknown) => this.ctx.log(`could not read the stats of ${this.server}`, error));
    }
    if (killedForMemory) this.daemonMessage(memoryMessage(running.memoryLimit));
    if (!crashed) return;
    this.daemonMessage(`The server has crashed (exit code ${running.env.exitDescription()}).`);
    // Restarted only when it had run a while, so one that crashes at once is not restarted in a loop.
    if (ranFor >= this.ctx.crashRestartAfterMs) {
      this.daemonMessage('Restarting it, as it had run for over a minute.');
      void this.ctx.restart(this.server).catch((error: unknown) => this.ctx.log(`could not restart ${this.server} after a crash`, error));
    } else {
      this.daemonMessage('It is not restarted: it crashed within a minute of starting.');
    }
  }

  /** Runs the ticker while it runs and someone listens or a limit is watched; stops it otherwise. */
  private syncTicker(): void {
    const running = this.running;
    const wanted = running !== null && (this.listeners.size > 0 || running.memoryLimit > 0 || running.diskLimit > 0);
    if (wanted && !this.ticker) {
      this.ticker = setInterval(() => void this.tick(), this.ctx.statsIntervalMs);
      this.ticker.unref();
    } else if (!wanted && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  /** One figure for the listeners, and the watchdog. */
  private async tick(): Promise<void> {
    const running = this.running;
    if (!running || this.ticking) return;
    this.ticking = true;
    try {
      const stats = await this.resources();
      if (this.running !== running) return;
      this.emit({ type: 'stats', stats });
      if (running.memoryLimit > 0 && stats.memory_bytes > running.memoryLimit && !running.stopping) {
        this.daemonMessage(memoryMessage(running.memoryLimit));
        await this.kill();
      } else if (running.diskLimit > 0 && stats.disk_bytes > running.diskLimit && !running.stopping) {
        // Its own writes took it past the limit (the file manager and SFTP refuse such writes).
        this.daemonMessage(`Server is exceeding its disk limit of ${mib(running.diskLimit)} MiB, stopping it.`);
        await this.stop();
      }
    } catch (error) {
      this.ctx.log(`could not read the stats of ${this.server}`, error);
    } finally {
      this.ticking = false;
    }
  }
}

function memoryMessage(limit: number): string {
  return `Server is exceeding its memory limit of ${mib(limit)} MiB, stopping it.`;
}
