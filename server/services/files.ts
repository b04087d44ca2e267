import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app';
import type { FileObject } from '../../src/contract';
import { DaemonError, NOT_FOUND_MESSAGE, type DaemonFileStat } from '../daemon/types';
import { badRequest, HttpError } from '../http/errors';
import { isoOffset } from '../lib/time';
import type { ServerAccess } from './access';
import { logActivity, serverActivity } from './activity';

/*
 * What the file routes share: daemon errors as HTTP errors (an escape and a missing file give the
 * very same 404 document), daemon stats as `file_object`s, and the `server:file.*` audit entries.
 */

export type TooLargeAs = 'editor' | 'payload';

export function fileNotFound(): HttpError {
  return new HttpError(404, 'NotFoundHttpException', NOT_FOUND_MESSAGE);
}

export function toHttpError(error: unknown, tooLarge: TooLargeAs = 'payload'): unknown {
  if (!(error instanceof DaemonError)) return error;
  if (error.kind === 'not_found') return fileNotFound();
  if (error.kind === 'too_large') {
    return tooLarge === 'editor'
      ? new HttpError(400, 'FileSizeTooLargeException', 'The file you are attempting to open is too large to view in the file editor.')
      : new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');
  }
  // Wings answers 400 for disk space (pterodactyl-facts §4.4); 413 stays for one body over the upload cap.
  if (error.kind === 'no_space') return new HttpError(400, 'InsufficientDiskSpaceException', error.message);
  return badRequest(error.message);
}

/** Runs a daemon call and rethrows its refusal as the matching HTTP error. */
export async function daemonCall<T>(call: () => Promise<T>, tooLarge: TooLargeAs = 'payload'): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toHttpError(error, tooLarge);
  }
}

// Files of one directory mostly share their second (an install or an archive writes thousands at
// once), so formatted stamps are kept per second; the map is dropped when it grows large.
const stamps = new Map<number, string>();
function stampOf(ms: number): string {
  const second = Math.floor(ms / 1000);
  let stamp = stamps.get(second);
  if (stamp === undefined) {
    if (stamps.size >= 8192) stamps.clear();
    stamp = isoOffset(new Date(second * 1000));
    stamps.set(second, stamp);
  }
  return stamp;
}

export function fileObjectAttributes(stat: DaemonFileStat): FileObject {
  return {
    name: stat.name,
    mode: stat.mode,
    mode_bits: stat.modeBits,
    size: stat.size,
    is_file: stat.isFile,
    is_symlink: stat.isSymlink,
    mimetype: stat.mimetype,
    created_at: stampOf(stat.createdMs),
    modified_at: stampOf(stat.modifiedMs),
  };
}

export function renderFileObject(stat: DaemonFileStat) {
  return { object: 'file_object' as const, attributes: fileObjectAttributes(stat) };
}

/** Writes one `server:file.*` entry for the caller's action on the server. */
export async function logFileActivity(
  deps: AppDeps,
  request: FastifyRequest,
  access: ServerAccess,
  event: string,
  properties: Record<string, unknown>,
): Promise<void> {
  await logActivity(deps.db, serverActivity(access.caller, request.ip, access.server.id, event, properties, deps.clock.now()));
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII fallback with every risky character
 * replaced, plus the exact name percent-encoded in `filename*`, so no name can inject a header.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 200) || 'download';
  let encoded: string;
  try {
    encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    encoded = encodeURIComponent(fallback);
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
