import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type * as z from 'zod/mini';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { BackupCapability, DaemonEvent, FileCapability } from '../capabilities';
import { backupTokenSchema, fileTokenSchema, SingleUseTokens, uploadTokenSchema, verifyToken } from '../tokens';
import { DaemonError, type UploadPart } from '../types';
import type { ChunkedUploads } from './chunked-uploads';
import { fail, invalidLink, refusalOf, uploaded } from './transfer-replies';
import { chunkRoutes, startChunked, startsChunked } from './upload-chunks';
import { display, resolveBeneath } from './paths';

/*
 * The node's signed transfer endpoints, where Wings has them: `GET /download/file?token=`,
 * `GET /download/backup?token=` and `POST /upload/file?token=&directory=`. The browser comes here
 * with a URL the panel signed for it (files/download, backups/download, files/upload), so these routes trust the token, not a session: its
 * signature, its expiry, that it is used once, and that the user's tokens on the server were not
 * revoked since it was signed. Refusals are the panel's error documents. The upload link also
 * takes resumable uploads in chunks, Aerie's extension (`upload-chunks.ts`).
 */

export interface TransferOptions {
  files: FileCapability;
  backups: BackupCapability;
  /** The node's signing key; undefined while the panel has not made one (no token can be valid then). */
  key: () => Promise<string | undefined>;
  /** Whether the panel revoked the user's tokens on the server since this one was issued. */
  denied: (server: string, jti: string, issuedAt: Date) => boolean;
  /** Where the node reports what a user did (the upload's audit entries). */
  report: (event: DaemonEvent) => void;
  maxUploadBytes: number;
  now: () => Date;
  /** Resumable uploads in chunks (`upload-chunks.ts`): Aerie's extension, absent on Wings. */
  chunks?: ChunkedUploads;
}

/** How often uploads left idle are looked for. */
const CHUNK_SWEEP_MS = 60_000;

const MAX_UPLOAD_FILES = 100;

export async function transferRoutes(app: FastifyInstance, options: TransferOptions): Promise<void> {
  const used = new SingleUseTokens();
  /** A valid token of this shape, spent by this call: the second use of a link is refused. */
  async function claimed<S extends z.ZodMiniType<{ unique_id: string; server_uuid: string; jti: string; iat: number }>>(
    token: unknown,
    schema: S,
  ): Promise<z.output<S> | null> {
    const key = await options.key();
    const payload = typeof token === 'string' && key ? await verifyToken(token, key, schema, options.now()) : null;
    // A subuser removed or narrowed since the link was signed: it no longer works (attacks T-SESS-4).
    if (payload === null || options.denied(payload.server_uuid, payload.jti, new Date(payload.iat * 1000))) return null;
    return used.claim(payload.unique_id, options.now()) ? payload : null;
  }

  app.get<{ Querystring: { token?: unknown } }>('/download/file', async (request, reply) => {
    const token = await claimed(request.query.token, fileTokenSchema);
    if (!token) return fail(reply, invalidLink());
    try {
      const { stat, stream } = await options.files.open(token.server_uuid, token.file_path);
      return await reply
        .type('application/octet-stream')
        .header('Content-Disposition', attachmentDisposition(stat.name))
        .header('Content-Length', String(stat.size))
        .header('Cache-Control', 'no-store')
        .send(stream);
    } catch (error) {
      return fail(reply, refusalOf(error));
    }
  });

  app.get<{ Querystring: { token?: unknown } }>('/download/backup', async (request, reply) => {
    const token = await claimed(request.query.token, backupTokenSchema);
    if (!token) return fail(reply, invalidLink());
    try {
      const { size, stream } = await options.backups.open(token.server_uuid, token.backup_uuid);
      return await reply
        .type('application/gzip')
        .header('Content-Disposition', `attachment; filename="${token.backup_uuid}.tar.gz"`) // a uuid: nothing to escape
        .header('Content-Length', String(size))
        .header('Cache-Control', 'no-store')
        .send(stream);
    } catch (error) {
      return fail(reply, refusalOf(error));
    }
  });

  // Multipart in its own context, so its parser never reaches other routes.
  await app.register(async (up) => {
    await up.register(multipart, {
      throwFileSizeLimit: true,
      limits: {
        fileSize: options.maxUploadBytes,
        files: MAX_UPLOAD_FILES,
        fields: 10,
        fieldSize: 1024,
        parts: MAX_UPLOAD_FILES + 10,
        headerPairs: 100,
      },
    });
    // Names the limit, and the way around it, rather than only saying no (issue 22 #5).
    const mib = Math.round((options.maxUploadBytes / (1024 * 1024)) * 10) / 10;
    const overLimit = () => new DaemonError('too_large', `The file is larger than the ${mib} MiB upload limit. Upload it over SFTP instead.`);
    up.post<{ Querystring: { token?: unknown; directory?: unknown } }>('/upload/file', async (request, reply) => {
      const token = await claimed(request.query.token, uploadTokenSchema);
      // A body left unread is drained, or its connection closed, by the server this node is mounted on.
      if (!token) return fail(reply, invalidLink());
      try {
        const directory = typeof request.query.directory === 'string' && request.query.directory !== '' ? request.query.directory : '/';
        if (options.chunks && startsChunked(request)) return await startChunked(request, reply, token, directory, options.chunks);
        if (!request.isMultipart()) throw new DaemonError('bad_request', 'The upload must be a multipart/form-data request.');
        // The body may carry up to MAX_UPLOAD_FILES files; a declared length past that is refused unread.
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > options.maxUploadBytes * MAX_UPLOAD_FILES + 1024 * 1024) throw new DaemonError('too_large', 'The upload is too large.');
        async function* parts(): AsyncGenerator<UploadPart> {
          for await (const part of request.files()) {
            // Refused at the limit, not once the rest of the body has arrived (it may never, if the client waits for an answer).
            part.file.once('limit', () => part.file.destroy(overLimit()));
            yield { filename: part.filename, stream: part.file };
            // busboy ends a stream cut at the size limit normally and only flags it: the flag is the last word.
            if (part.file.truncated) throw overLimit();
          }
        }
        const stored = await options.files.upload(token.server_uuid, directory, parts(), { maxBytes: options.maxUploadBytes });
        // The folder as stored, not as typed (`/a/../plugins//`), as Wings cleans it.
        for (const file of stored) options.report(uploaded(token, request.ip, display(resolveBeneath([], directory)), file));
        return await reply.status(204).send();
      } catch (error) {
        return fail(reply, refusalOf(error));
      }
    });
  });
  const { chunks } = options;
  if (chunks) {
    await chunkRoutes(app, { uploads: chunks, key: options.key, denied: options.denied, report: options.report, now: options.now });
    const sweeper = setInterval(() => void chunks.sweep(), CHUNK_SWEEP_MS).unref();
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await chunks.close();
    });
  }
}
