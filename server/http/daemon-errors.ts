import { DaemonError, NOT_FOUND_MESSAGE } from '../daemon/types';
import { badRequest, HttpError } from './errors';

/*
 * The one place a node daemon's refusal becomes an HTTP answer. An escape from the volume and a
 * missing file give the very same 404 document (no existence oracle).
 */

/** How a `too_large` refusal reads: the editor's own 400, or a body over the upload cap (413). */
export type TooLargeAs = 'editor' | 'payload';

export function fileNotFound(): HttpError {
  return new HttpError(404, 'NotFoundHttpException', NOT_FOUND_MESSAGE);
}

export function toHttpError(error: unknown, tooLarge: TooLargeAs = 'payload'): unknown {
  if (!(error instanceof DaemonError)) return error;
  switch (error.kind) {
    case 'not_found':
      return fileNotFound();
    case 'too_large':
      return tooLarge === 'editor'
        ? new HttpError(400, 'FileSizeTooLargeException', 'The file you are attempting to open is too large to view in the file editor.')
        : new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');
    // Wings answers 400 for disk space (pterodactyl-facts §4.4); 413 stays for one body over the upload cap.
    case 'no_space':
      return new HttpError(400, 'InsufficientDiskSpaceException', error.message);
    // Busy: a restore, a reinstall or another power action holds the server (Wings' 409).
    case 'conflict':
      return new HttpError(409, 'DaemonConnectionException', error.message);
    // The reference panel's answer when Wings says the server is not running.
    case 'offline':
      return new HttpError(502, 'HttpException', error.message);
    case 'unavailable':
      return new HttpError(504, 'DaemonConnectionException', error.message);
    default:
      return badRequest(error.message);
  }
}

/** Runs a daemon call and rethrows its refusal as the matching HTTP error. */
export async function daemonCall<T>(call: () => Promise<T>, tooLarge: TooLargeAs = 'payload'): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toHttpError(error, tooLarge);
  }
}
