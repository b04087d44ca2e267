import type { Readable } from 'node:stream';

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
  /** ctime (Wings reports it as "created") and mtime in epoch milliseconds (numbers: building Dates for 10,000 entries shows up). */
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

export type DaemonErrorKind =
  | 'not_found'
  | 'bad_request'
  | 'too_large'
  | 'no_space'
  /** The server is busy with something that excludes this action (a reinstall or restore running). */
  | 'conflict'
  /** The action needs the server's process running, and it is not. */
  | 'offline'
  /** The node could not be reached, or did not answer in time. */
  | 'unavailable';

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
