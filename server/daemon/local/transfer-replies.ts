import type { FastifyReply } from 'fastify';
import type { ErrorDocument } from '../../../src/contract';
import type { DaemonEvent } from '../capabilities';
import type { UploadToken } from '../tokens';
import { DaemonError, describeRefusal, type RefusalDocument } from '../types';

/* How the node's signed transfer endpoints say no (the panel's error documents, spec §7), and what an upload reports. */

const INVALID_TOKEN = 'The download or upload link is invalid, expired or already used. Ask the panel for a new one.';

/** A refused link: the panel's error document, so the SPA reads it like any other refusal. */
export const invalidLink = (): RefusalDocument => ({ status: 403, code: 'AccessDeniedHttpException', detail: INVALID_TOKEN });

export function refusalOf(error: unknown): RefusalDocument {
  if (error instanceof DaemonError) return describeRefusal(error);
  if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
    return describeRefusal(new DaemonError('too_large', ''));
  }
  throw error;
}

export function fail(reply: FastifyReply, refusal: RefusalDocument): FastifyReply {
  const document: ErrorDocument = { errors: [{ code: refusal.code, status: String(refusal.status), detail: refusal.detail }] };
  return reply.status(refusal.status).type('application/json; charset=utf-8').header('Cache-Control', 'no-store').send(document);
}

/** The activity entry of one file stored by an upload, single request or chunked alike. */
export function uploaded(token: UploadToken, ip: string, directory: string, file: string): DaemonEvent {
  return { type: 'activity', server: token.server_uuid, user: token.user_uuid, ip, event: 'server:file.uploaded', properties: { directory, file } };
}
