import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BrowserRoutes, DaemonEvent, InstallConfiguration, MountOptions, NodeDaemon, ServerConfiguration } from '../capabilities';
import { LocalBackups } from './backups';
import { Configurations, type ConfigurationSource } from './configurations';
import { consoleLog, DaemonEvents, type DaemonLog } from './events';
import { LocalFiles } from './files';
import { ServerLocks } from './locks';
import { LocalProcesses } from './processes';
import { DEFAULT_SERVER_USER, prepareHostUser, type HostUser } from './host-user';
import { DiskQuotas, measureUsage } from './quota';
import { runInstallScript } from './installer';
import { InstallLogs } from './install-log';
import { networkOptions, sweepNamespaces, type NetworkOptions } from './network';
import { findBwrap } from './sandbox';
import { LocalServers } from './servers';
import { loadHostKey, SftpServer, type SftpOptions } from './sftp';
import { TokenDenylist } from './socket-tokens';
import { transferRoutes } from './transfers';
import { transferReceiveRoutes } from './transfer-receive';
import { TransferSender } from './transfer-send';
import { ChunkedUploads } from './chunked-uploads';
import { Volumes } from './volumes';
import type { SwapCheckpoint } from './volume-swap';
import { consoleSocketRoutes, type ConsoleSocketOptions } from './websocket';

export type { ConfigurationSource } from './configurations';
export type { SftpCredentials, SftpGrant } from './sftp';
export { DEFAULT_EXTRACT_LIMITS } from './files';
export { chunkBytesFor } from './chunked-uploads';

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
  /** Servers' networks: pasta (found on PATH by default), host loopback ports they may reach, and whether they may share the host's network without pasta. */
  network?: Partial<NetworkOptions>;
  /** The console socket's timers (tests shorten them): how often a token's expiry is checked, how long a fresh one is awaited. */
  socketTimings?: Pick<ConsoleSocketOptions, 'expiryCheckMs' | 'reauthGraceMs'>;
  /** How a server is installed (the panel's egg script), asked on each install; none: only the volume is made. */
  installSource?: (server: string) => Promise<InstallConfiguration | undefined>;
  /** Host files install scripts may read, at `/mnt/install/<name>` (the demo game's program). */
  installFiles?: Record<string, string>;
  /** Processes (and threads) one server may run at once, where cgroups allow it; 0 = none (512 by default, as Wings). */
  pidsLimit?: number;
  /** How long a stop waits for the program before killing it; 30 s by default. */
  stopTimeoutMs?: number;
  /** The host user servers run as when the daemon is root (Wings' 988 by default); null: the daemon's own. */
  serverUser?: HostUser | null;
  /** Start servers where cgroups cannot hold them to their limits (PANEL_ALLOW_UNLIMITED_SERVERS); refused by default. */
  allowUnlimitedServers?: boolean;
  /** Called at each step of a truncating restore's swap (`volume-swap.ts`); tests pause or fail it there. */
  restoreCheckpoint?: SwapCheckpoint;
}

/**
 * The node daemon in this process: volumes under `<data dir>/volumes/<uuid>`. The capabilities
 * share one set of per-server parts (held configurations, locks, disk usage), which is what makes
 * a reinstall exclude file writes and a deleted server forget its limits.
 */
export class LocalDaemon implements NodeDaemon, BrowserRoutes {
  readonly files: LocalFiles;
  readonly servers: LocalServers;
  readonly process: LocalProcesses;
  readonly stats: LocalProcesses;
  readonly events: DaemonEvents;
  readonly backups: LocalBackups;
  readonly transfers: TransferSender;
  /** Resumable uploads in chunks on the upload link; `chunkBytes` is what the panel advertises as the link's `chunk_bytes`. */
  readonly chunkedUploads: ChunkedUploads;
  private readonly volumes: Volumes;
  /** The output of each server's last install, which a console replays to those who may see installs. */
  private readonly installLogs: InstallLogs;
  private readonly socketTokens: TokenDenylist;
  /**
   * Removes what a crash left in the volumes (half-received bodies, staging directories) and
   * beside them (partial backups), before anything is written to them. Only the process that serves the node calls it, once at start:
   * another process on the same data dir (the admin CLI) would remove a running write's files.
   */
  readonly sweepLeftovers: () => void;
  private readonly mountOptions: { key: () => Promise<string | undefined>; maxUploadBytes: number; now: () => Date };
  private readonly configurations: Configurations;
  private readonly locks: ServerLocks;
  private readonly quotas: DiskQuotas;
  private readonly log: DaemonLog;
  private readonly socketTimings: LocalDaemonOptions['socketTimings'];
  private readonly dataDir: string;
  private sftp: SftpServer | null = null;

  constructor(dataDir: string, options: LocalDaemonOptions = {}) {
    this.dataDir = dataDir;
    this.volumes = new Volumes(dataDir, options.restoreCheckpoint);
    const now = options.now ?? (() => new Date());
    this.socketTimings = options.socketTimings;
    this.mountOptions = { key: options.key ?? (async () => undefined), maxUploadBytes: options.maxUploadBytes ?? 100 * 1024 * 1024, now };
    const configurations = (this.configurations = new Configurations(options.configurationSource));
    const locks = (this.locks = new ServerLocks());
    const quotas = (this.quotas = new DiskQuotas());
    const log = (this.log = options.log ?? consoleLog);
    this.events = new DaemonEvents(log);
    const report = (event: DaemonEvent) => this.events.emit(event);

    this.socketTokens = new TokenDenylist(options.now);
    this.sweepLeftovers = () => {
      this.volumes.sweep(log, (server, work) => locks.write(server, work));
      void this.backups.sweep();
      void sweepNamespaces(network.dir);
    };
    this.files = new LocalFiles(this.volumes, configurations, locks, quotas, options.maxEntriesPerServer);
    this.chunkedUploads = new ChunkedUploads(this.files, { now, maxChunkBytes: this.mountOptions.maxUploadBytes });
    this.backups = new LocalBackups({
      root: path.join(dataDir, 'backups'),
      volumes: this.volumes,
      configurations,
      locks,
      quotas,
      emit: (event) => this.events.emit(event),
      announce: (server, event) => this.process.announce(server, event),
      halt: (server) => this.process.halt(server, 'stop'),
      ignoreFile: (server, maxBytes) => this.files.read(server, '.pteroignore', maxBytes).then(String, () => ''),
      maxEntries: () => this.files.maxEntries,
      log,
    });
    const bwrap = options.bwrap === undefined ? findBwrap() : options.bwrap;
    const hostUser = prepareHostUser(options.serverUser === undefined ? DEFAULT_SERVER_USER : options.serverUser, dataDir, this.volumes.root, (m) =>
      log(m, ''),
    );
    const network = networkOptions(options.network);
    // Beside the console logs, in the data dir: never in a volume a tenant could rewrite.
    const installLogs = (this.installLogs = new InstallLogs(path.join(dataDir, 'logs'), now));
    this.servers = new LocalServers(
      this.volumes,
      configurations,
      locks,
      quotas,
      this.events,
      this.socketTokens,
      log,
      (server, how) => this.process.halt(server, how),
      async (server) => {
        const install = await options.installSource?.(server);
        if (!install) return true;
        const configuration = await configurations.get(server);
        return installLogs.record(
          server,
          (onLine) =>
            runInstallScript({
              volume: this.volumes.path(server),
              install,
              configuration,
              files: options.installFiles ?? {},
              bwrap,
              hostUser,
              network,
              onLine,
            }),
          (line) => this.process.installOutput(server, line),
        );
      },
      async (server) => {
        await this.backups.removeAll(server);
        await installLogs.forget(server);
      },
      (server) => this.transfers.deleting(server),
    );
    this.process = new LocalProcesses({
      // Console logs live in the data dir, never in a volume a tenant could rewrite.
      logDir: path.join(dataDir, 'logs'),
      configuration: (server, fresh) => (fresh ? configurations.sync(server) : configurations.get(server)),
      volumePath: (server) => this.volumes.path(server),
      powerLock: (server, fn) => locks.power(server, fn),
      bwrap,
      network,
      log,
      diskBytes: async (server) => (await measureUsage(await this.volumes.open(server))).bytes,
      pidsLimit: options.pidsLimit,
      stopTimeoutMs: options.stopTimeoutMs,
      hostUser,
      allowUnlimited: options.allowUnlimitedServers,
    });
    this.stats = this.process;
    this.transfers = new TransferSender({
      volumes: this.volumes,
      locks,
      halt: (server, how) => this.process.halt(server, how),
      emit: report,
      announce: (server, event) => this.process.announce(server, event),
      log,
    });
    // Wings: a server suspended while it runs is stopped (killed if it will not stop), once the
    // panel's sync has brought the suspension in.
    configurations.onUpdate = (configuration) => {
      const server = configuration.settings.uuid;
      // A suspension closes the server's SFTP sessions (the panel refuses them on recheck).
      if (configuration.settings.suspended) void this.sftp?.recheck(server);
      if (!configuration.settings.suspended || this.process.state(server) === 'offline') return;
      void this.process.halt(server, 'stop').catch((error: unknown) => log(`could not stop suspended server ${server}`, error));
    };
  }

  /** The signed transfer endpoints (files and backups) and the console socket, on the panel's own server (this node has no listener of its own). */
  async mount(app: FastifyInstance, options: MountOptions): Promise<void> {
    const report = (event: DaemonEvent) => this.events.emit(event);
    const denied = (server: string, jti: string, issuedAt: Date) => this.socketTokens.isDenied(server, jti, issuedAt);
    await transferRoutes(app, { files: this.files, backups: this.backups, report, denied, chunks: this.chunkedUploads, ...this.mountOptions });
    const { volumes, configurations, locks, quotas, log } = this;
    const maxEntries = () => this.files.maxEntries;
    await transferReceiveRoutes(app, { volumes, configurations, locks, quotas, maxEntries, emit: report, log, ...this.mountOptions });
    const connections = await consoleSocketRoutes(app, {
      processes: this.process,
      tokens: this.socketTokens,
      key: this.mountOptions.key,
      now: this.mountOptions.now,
      report,
      log: this.log,
      installReplay: (server) => this.installLogs.replay(server),
      known: (server) =>
        this.configurations.get(server).then(
          () => true,
          () => false,
        ),
      panelOrigin: options.panelOrigin,
      ...this.socketTimings,
    });
    // A revocation reaches open consoles at once; a deleted server's consoles are closed (Wings: "server deleted").
    this.socketTokens.watch((server, change) => {
      for (const connection of connections.of(server)) {
        if (change === 'denied') connection.recheck();
        else connection.close(1001, 'server deleted');
      }
    });
  }

  /**
   * Starts the node's SFTP server on `port` (0: a free one) and returns the port it listens on.
   * The panel signs users in (`authenticate`) and is asked again about every open session when a
   * revocation or a deletion reaches the node, and every `recheckMs` in any case.
   */
  async startSftp(
    options: Pick<SftpOptions, 'authenticate' | 'recheck' | 'recheckMs' | 'batchMs' | 'signInMs' | 'connections'> & { port: number; host: string },
  ): Promise<{ port: number; close: () => Promise<void> }> {
    const sftp = new SftpServer({
      ...options,
      files: this.files,
      report: (event) => this.events.emit(event),
      log: this.log,
      hostKey: await loadHostKey(this.dataDir),
    });
    const port = await sftp.listen(options.port, options.host);
    this.sftp = sftp;
    // A revocation (subuser changed or removed) or a deleted server reaches its sessions at once.
    const unwatch = this.socketTokens.watch((server, change) => (change === 'forgotten' ? sftp.endAll(server) : void sftp.recheck(server)));
    return {
      port,
      close: async () => {
        unwatch();
        if (this.sftp === sftp) this.sftp = null;
        await sftp.close();
      },
    };
  }

  /** The configuration the node holds for a server, fetched if it holds none (what Wings' server details show). */
  configuration(server: string): Promise<ServerConfiguration> {
    return this.configurations.get(server);
  }

  /** Where a server's volume lives on this machine (tests and benchmarks plant files there). */
  volumePath(server: string): string {
    return this.volumes.path(server);
  }

  /**
   * What the console socket checks of each token (tests ask it directly): true when a token for
   * `server` must be refused because its id was revoked after it was issued, or it was issued
   * before this daemon started (or carries no `iat`).
   */
  socketTokenDenied(server: string, jti: string, issuedAt: Date | undefined): boolean {
    return this.socketTokens.isDenied(server, jti, issuedAt);
  }
}
