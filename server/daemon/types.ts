import type { Readable } from 'node:stream';

/**
 * The node daemon: everything that touches a server's volume, console or archives goes through
 * this interface, so a remote (Wings-compatible) daemon can replace the local one without
 * touching routes. Every path argument is the client's string, unchanged: the daemon resolves it
 * beneath the server's volume and answers escapes exactly like a missing file (`DaemonError`
 * kind `not_found`), so there is no existence oracle.
 */
export interface Daemon {
  /** Creates the (empty) volume of a new server. Idempotent. */
  createVolume(serverUuid: string): Promise<void>;

  /** Every entry of a directory, symlinks reported as links and never followed. */
  listDirectory(serverUuid: string, directory: string): Promise<DaemonFileStat[]>;

  /** The bytes of a regular file; `too_large` past `maxBytes`, `bad_request` for a directory or special file. */
  readFile(serverUuid: string, file: string, maxBytes: number): Promise<Buffer>;

  /** A regular file opened for download; the stream closes the handle when it ends or is destroyed. */
  openFile(serverUuid: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }>;

  /**
   * Creates or replaces a regular file (missing parent directories are created). The content is
   * written to a temporary name and renamed over the target at the end, so a failed or oversized
   * write (`too_large` past `maxBytes`, `no_space` past the quota) leaves nothing behind.
   */
  writeFile(serverUuid: string, file: string, content: Buffer | Readable, options: { maxBytes: number } & WriteOptions): Promise<void>;

  /**
   * Stores uploaded files in `directory` under their base names. All or nothing: every file is
   * written to a temporary name first and only renamed into place once all of them arrived.
   * Returns the stored names.
   */
  uploadFiles(
    serverUuid: string,
    directory: string,
    files: AsyncIterable<UploadPart>,
    options: { maxBytes: number } & WriteOptions,
  ): Promise<string[]>;

  /** Copies a regular file next to itself (`name copy.ext`, `name copy 1.ext`, …); returns the new name. */
  copyFile(serverUuid: string, location: string, options?: WriteOptions): Promise<string>;

  /** Deletes files and directories (recursively); links are removed, never followed. */
  deleteFiles(serverUuid: string, root: string, files: string[]): Promise<void>;

  /** Creates a directory (and missing parents); an existing name is `bad_request`. */
  createDirectory(serverUuid: string, root: string, name: string, options?: WriteOptions): Promise<void>;

  /** Renames or moves within the volume; a missing source is skipped, an existing destination is `bad_request`. */
  renameFiles(serverUuid: string, root: string, files: { from: string; to: string }[], options?: WriteOptions): Promise<void>;

  /** Writes `archive-<timestamp>.tar.gz` into `root` holding `files` (relative to `root`); the archive counts against the quota. */
  compressFiles(serverUuid: string, root: string, files: string[], now: Date, options?: WriteOptions): Promise<DaemonFileStat>;

  /** Extracts a .tar, .tar.gz/.tgz or .zip archive into `root`; hostile, oversized or over-quota archives write nothing. */
  decompressFile(serverUuid: string, root: string, file: string, options?: WriteOptions & { limits?: Partial<ExtractLimits> }): Promise<void>;
}

/**
 * A server's disk limit in bytes (0 = unlimited, as the reference panel's `disk`). Writes under a
 * limit are serialised per server and stopped with `no_space` as soon as they would pass it.
 */
export interface WriteQuota {
  limitBytes: number;
}

export interface WriteOptions {
  quota?: WriteQuota;
}

/** What a daemon reports about one directory entry (Wings' stat, pterodactyl-facts §4.1). */
export interface DaemonFileStat {
  name: string;
  /** Go-style mode string: `-rw-r--r--`, `drwxr-xr-x`, `Lrwxrwxrwx`. */
  mode: string;
  /** Octal permission bits without padding, as Wings prints them: `"644"`. */
  modeBits: string;
  size: number;
  isFile: boolean;
  isSymlink: boolean;
  isDirectory: boolean;
  mimetype: string;
  /** ctime, as Wings reports "created". */
  /** ctime and mtime in epoch milliseconds (numbers: building Dates for 10,000 entries shows up). */
  createdMs: number;
  modifiedMs: number;
}

export interface UploadPart {
  /** The client's file name; only its base name is used. */
  filename: string;
  stream: Readable;
}

export interface ExtractLimits {
  /** Sum of the uncompressed sizes of all members. */
  maxBytes: number;
  /** Number of members (files and directories). */
  maxEntries: number;
}

export type DaemonErrorKind = 'not_found' | 'bad_request' | 'too_large' | 'no_space' | 'conflict' | 'offline' | 'unavailable';

/** The one error a daemon throws for a refused operation; routes map `kind` to an HTTP status. */
export class DaemonError extends Error {
  constructor(
    readonly kind: DaemonErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DaemonError';
  }
}

/** The single message for a missing path and for a path that escapes the volume (no oracle). */
export const NOT_FOUND_MESSAGE = 'The requested file or directory could not be found.';

/** A write refused by the server's disk limit (or by a full disk). */
export const noSpaceError = (): DaemonError => new DaemonError('no_space', 'There is not enough disk space available to complete this action.');
