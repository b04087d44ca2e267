import { DaemonError, describeRefusal } from '../daemon/types';
import { HttpError } from './errors';

/*
 * The one place a node daemon's refusal becomes an HTTP answer. An escape from the volume and a
 * missing file give the very same 404 document (no existence oracle).
 */

/** How a `too_large` refusal reads: the editor's own 400, or a body over the upload cap (413). */
export type TooLargeAs = 'editor' | 'payload';

export function toHttpError(error: unknown, tooLarge: TooLargeAs = 'payload', maxBytes?: number): unknown {
  if (!(error instanceof DaemonError)) return error;
  if (error.kind === 'too_large' && tooLarge === 'editor') {
    const detail = 'The file you are attempting to open is too large to view in the file editor.';
    // The reference panel's text names no size; `meta.max_bytes` lets the SPA state the real limit.
    const meta = maxBytes === undefined ? {} : { meta: { max_bytes: maxBytes } };
    return new HttpError(400, 'FileSizeTooLargeException', detail, [{ code: 'FileSizeTooLargeException', status: '400', detail, ...meta }]);
  }
  const { status, code, detail } = describeRefusal(error);
  return new HttpError(status, code, detail);
}

/** Runs a daemon call and rethrows its refusal as the matching HTTP error (`maxBytes`: the limit a `too_large` hit). */
export async function daemonCall<T>(call: () => Promise<T>, tooLarge: TooLargeAs = 'payload', maxBytes?: number): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toHttpError(error, tooLarge, maxBytes);
  }
}
