import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActivityEvent, ProcessState, SocketStats } from '../../src/contract';
import type { DaemonFileStat, ExtractLimits, UploadPart } from './types';

/*
 * The node daemon as the panel sees it: one interface per capability, each the same whether the
 * node is this process (the local daemon) or a Wings node across the network. Every call names
 * the server by uuid; the daemon holds that server's configuration, fetched from the panel (on
 * first use, before each start, and whenever the panel calls `servers.sync`), so no call carries
 * limits or quotas. Refusals are `DaemonError`s whose
 * `kind` the HTTP layer maps to a status in one place.
 */

/** How a server is installed (Wings' `GET /api/remote/servers/{uuid}/install`). */
export interface InstallConfiguration {
  container_image: string;
  entrypoint: string;
  script: string;
}

/**
 * What a node fetches from the panel for each server: Wings' server configuration document
 * (`{settings, process_configuration}` of the panel's `GET /api/remote/servers/{uuid}`), the very
 * JSON a Wings node reads.
 */
export interface ServerConfiguration {
  settings: {
    uuid: string;
    meta: { name: string; description: string };
    suspended: boolean;
    /** Egg variables plus the reference panel's STARTUP, SERVER_MEMORY, SERVER_IP, SERVER_PORT and P_* values. */
    environment: Record<string, string>;
    /** The startup command with `{{VARIABLE}}` placeholders, filled from `environment` when run. */
    invocation: string;
    skip_egg_scripts: boolean;
    build: {
      /** MiB; 0 = unlimited (as every limit here). */
      memory_limit: number;
      swap: number;
      io_weight: number;
      /** Percent of one core. */
      cpu_limit: number;
      /** A CPU list such as `0-1,3`; '' for any. */
      threads: string;
      /** MiB. */
      disk_space: number;
      oom_disabled: boolean;
    };
    container: { image: string; oom_disabled: boolean; requires_rebuild: boolean };
    allocations: {
      force_outgoing_ip: boolean;
      default: { ip: string; port: number };
      /** IP → ports assigned to the server on it. */
      mappings: Record<string, number[]>;
    };
    egg: { id: string; file_denylist: string[] };
  };
  process_configuration: {
    /** Output lines that mean "started" (the egg's done strings); empty = running as soon as started. */
    startup: { done: string[]; user_interaction: string[]; strip_ansi: boolean };
    /** How to stop it: a console line (`stop`) or a signal (`^C`, `SIGTERM`). */
    stop: { type: 'command' | 'signal'; value: string };
  };
}

/**
 * The file manager's operations. Every path is the client's string, unchanged: the daemon
 * resolves it beneath the server's volume and answers an escape exactly like a missing file
 * (`not_found`), so there is no existence oracle. Operations that change the volume take effect
 * one at a time per server (a body is received first, so a slow one holds up no other) and are
 * refused with `conflict` while a reinstall or restore holds the server.
 */
export interface FileCapability {
  /** Every entry of a directory, symlinks reported as links and never followed. */
  list(server: string, directory: string): Promise<DaemonFileStat[]>;
  /** The bytes of a regular file; `too_large` past `maxBytes`, `bad_request` for a directory or special file. */
  read(server: string, file: string, maxBytes: number): Promise<Buffer>;
  /** A regular file opened for download; the stream closes the handle when it ends or is destroyed. */
  open(server: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }>;
  /** Creates or replaces a regular file, all or nothing; `too_large` past `maxBytes`, `no_space` past the disk limit. */
  write(server: string, file: string, content: Buffer | Readable, options: { maxBytes: number }): Promise<void>;
  /** Stores uploaded files in `directory` under their base names, all or nothing; returns the stored names. */
  upload(server: string, directory: string, files: AsyncIterable<UploadPart>, options: { maxBytes: number }): Promise<string[]>;
  /** Copies a regular file next to itself (`name copy.ext`, …); returns the new name. */
  copy(server: string, location: string): Promise<string>;
  /** Deletes files and directories (recursively); links are removed, never followed. Returns the names of `files` that existed. */
  delete(server: string, root: string, files: string[]): Promise<string[]>;
  /** Creates a directory (and missing parents); an existing name is `bad_request`. */
  createDirectory(server: string, root: string, name: string): Promise<void>;
  /** Renames or moves within the volume; a missing source is skipped, an existing destination is `bad_request`. Returns the pairs moved. */
  rename(server: string, root: string, files: { from: string; to: string }[]): Promise<{ from: string; to: string }[]>;
  /**
   * Writes `archive-<timestamp>.tar.gz` into `root` holding `files`; it counts against the disk
   * limit. A file named twice (or inside a folder also named) is `bad_request`, as is more input
   * than the daemon's caps; `signal` stops it (the client went away). A refused or stopped
   * compress leaves no archive.
   */
  compress(server: string, root: string, files: string[], now: Date, options?: { signal?: AbortSignal }): Promise<DaemonFileStat>;
  /** Extracts a .tar, .tar.gz/.tgz or .zip archive into `root`; hostile, oversized or over-quota archives write nothing. */
  decompress(server: string, root: string, file: string, options?: { limits?: Partial<ExtractLimits> }): Promise<void>;
}

/** A server's life on the node. Work that finishes later is reported on the event channel. */
export interface ServerCapability {
  /**
   * Has the node fetch the server's configuration from the panel now (Wings' `POST
   * /api/servers/{uuid}/sync`): every change the panel makes to a server's limits, suspension,
   * startup, image or allocations ends here. `not_found` when the panel has no such server.
   */
  sync(server: string): Promise<void>;
  /**
   * Creates the server on the node (its volume) and runs its install; `install.completed` reports
   * its end (the local node answers once it has ended). `not_found` when the node has no
   * configuration for it.
   */
  create(server: string): Promise<void>;
  /**
   * Stops the server and runs its install again, excluding file writes and power actions
   * (`conflict`) until it ends; answers once it has begun, and `install.completed` reports its
   * end. `conflict` while another reinstall or a restore runs.
   */
  reinstall(server: string): Promise<void>;
  /** Stops the server and removes it, its volume and configuration included; a server the node does not know is already gone. */
  delete(server: string): Promise<void>;
  /**
   * Refuses websocket tokens with these ids (`jti`) issued before now, so a subuser whose rights
   * changed must fetch a new token.
   */
  revokeSocketTokens(server: string, jtis: string[]): Promise<void>;
}

/*
 * The capabilities below come with the console and backup features: the interfaces are fixed here
 * so those features only add an implementation.
 */

export type PowerAction = 'start' | 'stop' | 'restart' | 'kill';

export interface ProcessCapability {
  /** `conflict` while another power action or a restore runs; `offline` to stop what is not running. */
  power(server: string, action: PowerAction): Promise<void>;
  /** A line for the server's console; `offline` when the process is not running. */
  command(server: string, line: string): Promise<void>;
  /** The process's state now: the local node knows it at once, a remote node is asked (hence the promise). */
  state(server: string): ProcessState | Promise<ProcessState>;
}

export interface ConsoleCapability {
  /** The last lines of console output, oldest first. */
  history(server: string, lines: number): Promise<string[]>;
  /** Live console, install output, state and stats; returns the unsubscribe function. */
  subscribe(server: string, listener: (event: ConsoleEvent) => void): () => void;
}

export type ConsoleEvent =
  | { type: 'console output'; line: string }
  /** What the daemon itself says about the server (starting, a crash, the memory watchdog); not in the console's history. */
  | { type: 'daemon message'; line: string }
  | { type: 'install output'; line: string }
  | { type: 'status'; state: ProcessState }
  | { type: 'stats'; stats: SocketStats }
  /** A backup ended (Wings' `backup completed:<uuid>`): `checksum` is the bare SHA-1 hex, '' and 0 bytes when it failed. */
  | { type: 'backup completed'; backup: string; successful: boolean; checksum: string; bytes: number }
  /** How far a running backup is (0 to 1, of the bytes its files hold): Aerie's `backup progress:<uuid>`. */
  | { type: 'backup progress'; backup: string; progress: number }
  /** A restore ended, whichever way (Wings' `backup restore completed`; the console has said how). */
  | { type: 'backup restore completed' }
  /** Where a transfer this node sends stands, in Wings' (1.8+) source words: `processing`, then `failure` or, once the panel deletes it here, `completed`. */
  | { type: 'transfer status'; status: 'processing' | 'failure' | 'completed' }
  /** A line about the transfer for those who may follow it (`admin.websocket.transfer`). */
  | { type: 'transfer logs'; line: string };

export interface StatsCapability {
  resources(server: string): Promise<SocketStats>;
}

/**
 * Backups of a server's volume, kept on the node outside every volume (they do not count against
 * the server's disk limit). Each is named by the panel's backup uuid.
 */
export interface BackupCapability {
  /**
   * Starts writing a backup of the volume, minus the `ignore` patterns (gitignore lines, as Wings'
   * `.pteroignore`, which is read when `ignore` is empty), and returns; `backup.completed` follows.
   * `not_found` for a server the node does not hold, `conflict` during a restore or reinstall.
   */
  create(server: string, backup: string, ignore: string[]): Promise<void>;
  /**
   * Stops the server and restores the backup in the background, excluding file writes and power
   * actions (`conflict`) until it ends; with `truncate` the volume is emptied first. `not_found`
   * for a backup the node does not hold; `restore.completed` follows.
   */
  restore(server: string, backup: string, options: { truncate: boolean }): Promise<void>;
  /** Removes the archive; `not_found` when there is none, `conflict` while it is written or restored. */
  delete(server: string, backup: string): Promise<void>;
  /** A completed archive for download; `not_found` otherwise. */
  open(server: string, backup: string): Promise<{ size: number; stream: Readable }>;
}

/**
 * Moving a server's files to another node (Wings' `POST /api/servers/{uuid}/transfer`): this node
 * is the source. It refuses with `conflict` while a transfer, restore or reinstall holds the
 * server, and answers once the transfer holds it; it then stops the server (killed after 15 s, as
 * Wings), streams the volume to `target.url` and reports `transfer.sent`. The source keeps the
 * server as it was whatever happens: the panel deletes it from here once the target confirms.
 */
export interface TransferCapability {
  /** `url` is `<target node>/api/transfers`; `token` is sent as the `Authorization` header as given (`Bearer <jwt>`). */
  send(server: string, target: { url: string; token: string }): Promise<void>;
}

/** What a node reports back to the panel about work that finished later, or changed by itself. */
export type DaemonEvent =
  | { type: 'install.completed'; server: string; successful: boolean; reinstall: boolean }
  | { type: 'backup.completed'; server: string; backup: string; successful: boolean; checksum: string; bytes: number }
  | { type: 'restore.completed'; server: string; backup: string; successful: boolean }
  | { type: 'state.changed'; server: string; state: ProcessState }
  /** The target's end of a transfer: the server's files arrived whole and are in place (or nothing was left). */
  | { type: 'transfer.completed'; server: string; successful: boolean }
  /** The source's end of a transfer: the target answered 200, or why not (`reason`, '' on success). */
  | { type: 'transfer.sent'; server: string; successful: boolean; reason: string }
  /** An action a user took directly on the node (a signed upload, SFTP), for the audit log. */
  | { type: 'activity'; server: string; user: string; ip: string; event: ActivityEvent; properties: Record<string, unknown> };

export interface DaemonEventChannel {
  /** Listens to every event of the node; returns the unsubscribe function. */
  subscribe(listener: (event: DaemonEvent) => void | Promise<void>): () => void;
}

/** One node's daemon: the capabilities that exist today. */
export interface NodeDaemon {
  files: FileCapability;
  servers: ServerCapability;
  events: DaemonEventChannel;
  /** Servers' processes: power and console commands (a node that runs none has no such part yet). */
  process?: ProcessCapability;
  /** What a server uses now (memory, CPU, disk, uptime). */
  stats?: StatsCapability;
  /** Backup archives of the servers' volumes, kept on the node. */
  backups?: BackupCapability;
  /** Sending a server's files to another node (the source of a transfer). */
  transfers?: TransferCapability;
}

/**
 * What a node inside the panel's own process serves browsers, on the panel's server and origin:
 * what Wings serves on its own address (signed transfers, the console socket). The panel never
 * calls it, so it is no part of the node interface.
 */
export interface BrowserRoutes {
  mount(app: FastifyInstance, options: MountOptions): Promise<void>;
}

export interface MountOptions {
  /** The panel's origin as a request sees it: the console socket accepts pages of the panel only. */
  panelOrigin: (request: FastifyRequest) => string;
}
