import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { DaemonEvent } from '../capabilities';
import { uploadTokenSchema, verifyToken, type UploadToken } from '../tokens';
import { DaemonError } from '../types';
import type { ChunkedUploads, UploadOwner } from './chunked-uploads';
import { fail, invalidLink, refusalOf, uploaded } from './transfer-replies';

/*
 * Aerie's resumable extension of Wings' upload link (`/upload/file?token=`), after the resumable
 * uploads of Google's APIs (Content-Range on each chunk, `bytes *\/total` to ask where an upload
 * stands) rather than tus: a tus server brings its own store, locks and limits, and these must be
 * the node's own (`chunked-uploads.ts`). The panel advertises it with the link's `chunk_bytes`;
 * a client that does not know it posts multipart as to Wings.
 *
 *   POST /upload/file?token=&directory=  {"name", "size"}   → 201 {upload_id, offset: 0, chunk_bytes}
 *   PUT  /upload/file?token=&upload_id=  Content-Range: bytes a-b/size, body application/octet-stream
 *                                                            → 200 {offset, complete}
 *   PUT  … Content-Range: bytes *\/size, no body              → 200 {offset, complete: false}
 *
 * The link is spent by the POST, as a multipart upload spends it; each chunk carries the same
 * link, checked as of the upload's start (so an upload may outlive the link's 15 minutes while
 * it progresses, `IDLE_MS`) and against revocations as of now.
 */

const startSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(4096)),
  size: z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER)),
});

export interface ChunkRouteOptions {
  uploads: ChunkedUploads;
  key: () => Promise<string | undefined>;
  denied: (server: string, jti: string, issuedAt: Date) => boolean;
  report: (event: DaemonEvent) => void;
  now: () => Date;
}

const ownerOf = (token: UploadToken): UploadOwner => ({ server: token.server_uuid, tokenId: token.unique_id, user: token.user_uuid });

/** Whether a POST to the upload link starts a chunked upload (a JSON body) rather than carrying the files (multipart). */
export const startsChunked = (request: FastifyRequest): boolean => (request.headers['content-type'] ?? '').startsWith('application/json');

/** Starts a chunked upload with a link already claimed. */
export async function startChunked(request: FastifyRequest, reply: FastifyReply, token: UploadToken, directory: string, uploads: ChunkedUploads) {
  const body = startSchema.safeParse(request.body);
  if (!body.success) throw new DaemonError('bad_request', 'A chunked upload starts with {"name": <file name>, "size": <bytes>}.');
  const id = await uploads.start(ownerOf(token), directory, body.data.name, body.data.size);
  return reply.status(201).header('Cache-Control', 'no-store').send({ upload_id: id, offset: 0, chunk_bytes: uploads.chunkBytes });
}

type Range = { kind: 'status'; total: number } | { kind: 'chunk'; start: number; end: number; total: number };

function parseRange(header: string | undefined): Range | null {
  const status = /^bytes \*\/(\d{1,16})$/.exec(header ?? '');
  if (status) return { kind: 'status', total: Number(status[1]) };
  const chunk = /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16})$/.exec(header ?? '');
  if (!chunk) return null;
  const [start, end, total] = [Number(chunk[1]), Number(chunk[2]), Number(chunk[3])];
  return start <= end && end < total ? { kind: 'chunk', start, end, total } : null;
}

export async function chunkRoutes(app: FastifyInstance, options: ChunkRouteOptions): Promise<void> {
  const { uploads } = options;
  await app.register(async (chunks) => {
    // The body is streamed into the upload as it arrives, never buffered whole.
    chunks.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    chunks.put<{ Querystring: { token?: unknown; upload_id?: unknown } }>('/upload/file', async (request, reply) => {
      const id = typeof request.query.upload_id === 'string' ? request.query.upload_id : '';
      const key = await options.key();
      const startedAt = uploads.startedAt(id);
      // Checked as of the upload's start; unknown uploads are checked as of now, so a bad link is always 403.
      const at = startedAt ?? options.now();
      const token = typeof request.query.token === 'string' && key ? await verifyToken(request.query.token, key, uploadTokenSchema, at) : null;
      if (!token || options.denied(token.server_uuid, token.jti, new Date(token.iat * 1000))) return fail(reply, invalidLink());
      try {
        const range = parseRange(request.headers['content-range']);
        if (!range)
          throw new DaemonError(
            'bad_request',
            'A chunk needs a Content-Range of bytes <first>-<last>/<size> (or bytes */<size> to ask for the offset).',
          );
        if (range.kind === 'status')
          return await reply.header('Cache-Control', 'no-store').send({ offset: uploads.offset(id, ownerOf(token)), complete: false });
        if (!(request.body instanceof Readable)) throw new DaemonError('bad_request', 'A chunk is sent as application/octet-stream.');
        const result = await uploads.chunk(id, ownerOf(token), range, request.body);
        if (result.stored) options.report(uploaded(token, request.ip, result.stored.directory, result.stored.name));
        return await reply.header('Cache-Control', 'no-store').send({ offset: result.offset, complete: result.stored !== undefined });
      } catch (error) {
        // The generic "file not found" would mislead: it is the upload that is gone.
        if (error instanceof DaemonError && error.kind === 'not_found')
          return fail(reply, { status: 404, code: 'NotFoundHttpException', detail: error.message });
        return fail(reply, refusalOf(error));
      }
    });
  });
}
