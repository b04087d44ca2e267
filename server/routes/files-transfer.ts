import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { directoryQuerySchema, fileQuerySchema } from '../../src/contract';
import type { AppDeps } from '../deps';
import type { UploadPart } from '../daemon/types';
import { daemonCall } from '../http/daemon-errors';
import { badRequest, HttpError, parseWith } from '../http/errors';
import { declaredLength, requireCaller } from '../http/request-context';
import { attachmentDisposition } from '../lib/content-disposition';
import { authorizeServerAction } from '../services/access';
import { logActivity, serverActivity } from '../services/activity';

/*
 * The byte-moving file routes: files/download and files/upload (multipart). Bodies are streamed
 * to the daemon, never buffered whole, and only after access is checked.
 */

type ServerParams = { Params: { server: string } };
const BASE = '/api/client/servers/:server/files';
const MAX_UPLOAD_FILES = 100;

const tooLarge = () => new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');

export async function fileTransferRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { daemon } = deps;

  // Served directly with the session; the reference panel hands out a signed daemon URL instead.
  app.get<ServerParams>(`${BASE}/download`, async (request, reply) => {
    const caller = requireCaller(request);
    const access = await authorizeServerAction(deps.db, caller, request.params.server, 'file.read-content');
    const { file } = parseWith(fileQuerySchema, request.query);
    const { stat, stream } = await daemonCall(() => daemon.files.open(access.server.uuid, file));
    try {
      await logActivity(deps.db, serverActivity(caller, request.ip, access.server.id, 'server:file.download', { file }, deps.clock.now()));
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

  // files/upload?directory=: multipart, field name `files` (any field name is accepted), several files at once.
  await app.register(async (up) => {
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
      const caller = requireCaller(request);
      const access = await authorizeServerAction(deps.db, caller, request.params.server, 'file.create');
      const { directory } = parseWith(directoryQuerySchema, request.query);
      if (!request.isMultipart()) throw badRequest('The upload must be a multipart/form-data request.');
      const limit = deps.config.maxUploadBytes;
      const length = declaredLength(request.headers['content-length']);
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
      await logActivity(
        deps.db,
        serverActivity(caller, request.ip, access.server.id, 'server:file.upload', { directory, files: stored }, deps.clock.now()),
      );
      return reply.status(204).send();
    });
  });
}
