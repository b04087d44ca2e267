import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppDeps } from '../app';
import type { UploadPart } from '../daemon/types';
import { directoryQuerySchema, fileQuerySchema } from '../../src/contract';
import { badRequest, HttpError, parseWith } from '../http/errors';
import { authorizeServerAction } from '../services/access';
import { attachmentDisposition, daemonCall, logFileActivity } from '../services/files';

/*
 * The byte-moving file routes: files/write (raw body), files/download and files/upload
 * (multipart). Bodies are streamed to the daemon, never buffered whole, and only after access is
 * checked (the passthrough parsers leave the stream unread until the handler runs).
 */

type ServerParams = { Params: { server: string } };
const BASE = '/api/client/servers/:server/files';
const MAX_UPLOAD_FILES = 100;

const tooLarge = () => new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');

function declaredLength(request: FastifyRequest): number | null {
  const raw = request.headers['content-length'];
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

export async function fileTransferRoutes(files: FastifyInstance, deps: AppDeps): Promise<void> {
  const { daemon } = deps;

  // Served directly with the session; the reference panel hands out a signed daemon URL instead.
  files.get<ServerParams>(`${BASE}/download`, async (request, reply) => {
    const access = await authorizeServerAction(deps, request, request.params.server, 'file.read-content');
    const { file } = parseWith(fileQuerySchema, request.query);
    const { stat, stream } = await daemonCall(() => daemon.files.open(access.server.uuid, file));
    try {
      await logFileActivity(deps, request, access, 'server:file.download', { file });
    } catch (error) {
      stream.destroy();
      throw error;
    }
    return reply
      .type('application/octet-stream')
      .header('Content-Disposition', attachmentDisposition(stat.name))
      .header('Content-Length', String(stat.size))
      .header('Cache-Control', 'no-store')
      .send(stream);
  });

  // files/write: the raw body is the file (any content type, as the reference panel's editor sends text/plain).
  await files.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.post<ServerParams>(`${BASE}/write`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.create');
      const { file } = parseWith(fileQuerySchema, request.query);
      const limit = deps.config.maxUploadBytes;
      const length = declaredLength(request);
      if (length !== null && length > limit) throw tooLarge();
      const body = request.body instanceof Readable ? request.body : Buffer.alloc(0);
      await daemonCall(() => daemon.files.write(access.server.uuid, file, body, { maxBytes: limit }));
      await logFileActivity(deps, request, access, 'server:file.write', { file });
      return reply.status(204).send();
    });
  });

  // files/upload?directory=: multipart, field name `files` (any field name is accepted), several files at once.
  await files.register(async (up) => {
    await up.register(multipart, {
      throwFileSizeLimit: true,
      limits: {
        fileSize: deps.config.maxUploadBytes,
        files: MAX_UPLOAD_FILES,
        fields: 10,
        fieldSize: 1024,
        parts: MAX_UPLOAD_FILES + 10,
        headerPairs: 100,
      },
    });
    up.post<ServerParams>(`${BASE}/upload`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.create');
      const { directory } = parseWith(directoryQuerySchema, request.query);
      if (!request.isMultipart()) throw badRequest('The upload must be a multipart/form-data request.');
      const limit = deps.config.maxUploadBytes;
      const length = declaredLength(request);
      // The whole body may carry up to MAX_UPLOAD_FILES files; a declared length past that is refused unread.
      if (length !== null && length > limit * MAX_UPLOAD_FILES + 1024 * 1024) throw tooLarge();
      async function* parts(): AsyncGenerator<UploadPart> {
        for await (const part of request.files()) {
          yield { filename: part.filename, stream: part.file };
          // busboy ends a stream cut at the size limit normally and only flags it.
          if (part.file.truncated) throw tooLarge();
        }
      }
      const stored = await daemonCall(() => daemon.files.upload(access.server.uuid, directory, parts(), { maxBytes: limit }));
      await logFileActivity(deps, request, access, 'server:file.upload', { directory, files: stored });
      return reply.status(204).send();
    });
  });
}
