import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { NodeDaemon } from '../capabilities';
import { Configurations, type ConfigurationSource } from './configurations';
import { consoleLog, DaemonEvents, type DaemonLog } from './events';
import { LocalFiles } from './files';
import { ServerLocks } from './locks';
import { LocalProcesses } from './processes';
import { DiskQuotas, measureUsage } from './quota';
import { findBwrap } from './sandbox';
import { LocalServers } from './servers';
import { SocketTokenDenylist } from './socket-tokens';
import { transferRoutes } from './transfers';
import { Volumes } from './volumes';

export type { ConfigurationSource } from './configurations';
export { DEFAULT_EXTRACT_LIMITS } from './files';

export interface LocalDaemonOptions {
  /** Asked for the configuration of a server the daemon has not been given (the panel's database). */
  configurationSource?: ConfigurationSource;
  /** Failures nobody awaits (a listener that throws, a deleted volume too deep to remove); the console by default. */
  log?: DaemonLog;
  /** The daemon's clock: websocket token revocation, transfer token expiry, and when a held configuration is pulled afresh. */
  now?: () => Date;
  /** The key the panel signs this node's tokens with (as Wings reads its token from its configuration). */
  key?: () => Promise<string | undefined>;
  /** The largest file one upload may carry. */
  maxUploadBytes?: number;
  /** Files and folders one server may hold (0 = no cap); `DEFAULT_MAX_ENTRIES` by default. */
  maxEntriesPerServer?: number;
  /** The sandbox program servers run in; found on PATH by default (null: none, so nothing starts). */
  bwrap?: string | null;
  /** Processes (and threads) one server may run at once, where cgroups allow it; 0 = none (512 by default, as Wings). */
  pidsLimit?: number;
}

/**
 * The node daemon in this process: volumes under `<data dir>/volumes/<uuid>`. The capabilities
 * share one set of per-server parts (held configurations, locks, disk usage), which is what makes
 * a reinstall exclude file writes and a deleted server forget its limits.
 */
export class LocalDaemon implements NodeDaemon {
  readonly files: LocalFiles;
  readonly servers: LocalServers;
  readonly process: LocalProcesses;
  readonly stats: LocalProcesses;
  readonly events: DaemonEvents;
  private readonly volumes: Volumes;
  private readonly socketTokens: SocketTokenDenylist;
  /**
   * Removes what a crash left in the volumes (half-received bodies, staging directories), before
   * anything is written to them. Only the process that serves the node calls it, once at start:
   * another process on the same data dir (the admin CLI) would remove a running write's files.
   */
  readonly sweepLeftovers: () => void;
  private readonly mountOptions: { key: () => Promise<string | undefined>; maxUploadBytes: number; now: () => Date };

  constructor(dataDir: string, options: LocalDaemonOptions = {}) {
    this.volumes = new Volumes(dataDir);
    const now = options.now ?? (() => new Date());
    this.mountOptions = { key: options.key ?? (async () => undefined), maxUploadBytes: options.maxUploadBytes ?? 100 * 1024 * 1024, now };
    const configurations = new Configurations(options.configurationSource, () => now().getTime());
    const locks = new ServerLocks();
    const quotas = new DiskQuotas();
    const log = options.log ?? consoleLog;
    this.events = new DaemonEvents(log);

    this.socketTokens = new SocketTokenDenylist(options.now);
    this.sweepLeftovers = () => this.volumes.sweep(log, (server, work) => locks.write(server, work));
    this.files = new LocalFiles(this.volumes, configurations, locks, quotas, options.maxEntriesPerServer);
    this.servers = new LocalServers(this.volumes, configurations, locks, quotas, this.events, this.socketTokens, log, (server, how) =>
      this.process.halt(server, how),
    );
    this.process = new LocalProcesses({
      // Console logs live in the data dir, never in a volume a tenant could rewrite.
      logDir: path.join(dataDir, 'logs'),
      configuration: (server) => configurations.get(server),
      volumePath: (server) => this.volumes.path(server),
      powerLock: (server, fn) => locks.power(server, fn),
      bwrap: options.bwrap === undefined ? findBwrap() : options.bwrap,
      log,
      diskBytes: async (server) => (await measureUsage(await this.volumes.open(server))).bytes,
      pidsLimit: options.pidsLimit,
    });
    this.stats = this.process;
  }

  /** The signed transfer endpoints, on the panel's own server (this node has no listener of its own). */
  async mount(app: FastifyInstance): Promise<void> {
    await transferRoutes(app, { files: this.files, report: (event) => this.events.emit(event), ...this.mountOptions });
  }

  /** Where a server's volume lives on this machine (tests and benchmarks plant files there). */
  volumePath(server: string): string {
    return this.volumes.path(server);
  }

  /**
   * For the websocket endpoint: true when a token for `server` must be refused because its id was
   * revoked after it was issued, or it was issued before this daemon started (or carries no `iat`).
   */
  socketTokenDenied(server: string, jti: string, issuedAt: Date | undefined): boolean {
    return this.socketTokens.isDenied(server, jti, issuedAt);
  }
}
