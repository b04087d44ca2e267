import type { Readable } from 'node:stream';

/** What a daemon reports about one directory entry (the shape of Wings' stat). */
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

/** How a refusal reads on the wire: the status and `code` of the error document. */
export interface RefusalDocument {
  status: number;
  code: string;
  detail: string;
}

/**
 * The answer for each kind, the same whether the node answers the browser itself (a signed
 * download) or the panel passes the refusal on: Wings' statuses, the reference panel's codes.
 */
export function describeRefusal(error: DaemonError): RefusalDocument {
  switch (error.kind) {
    case 'not_found':
      return { status: 404, code: 'NotFoundHttpException', detail: NOT_FOUND_MESSAGE };
    case 'too_large':
      return { status: 413, code: 'PayloadTooLargeHttpException', detail: error.message || 'The file is larger than the allowed upload size.' };
    // Wings answers 400 for disk space; 413 is only for one body over the upload cap.
    case 'no_space':
      return { status: 400, code: 'InsufficientDiskSpaceException', detail: error.message };
    case 'conflict':
      return { status: 409, code: 'DaemonConnectionException', detail: error.message };
    // The reference panel's answer when the node says the server is not running.
    case 'offline':
      return { status: 502, code: 'HttpException', detail: error.message };
    case 'unavailable':
      return { status: 504, code: 'DaemonConnectionException', detail: error.message };
    case 'bad_request':
      return { status: 400, code: 'BadRequestHttpException', detail: error.message };
  }
}
