import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app';
import {
  compressSchema,
  copyFileSchema,
  createFolderSchema,
  decompressSchema,
  deleteFilesSchema,
  directoryQuerySchema,
  fileQuerySchema,
  renameFilesSchema,
} from '../../src/contract';
import { parseWith } from '../http/errors';
import { authorizeServerAction } from '../services/access';
import { daemonCall, logFileActivity, renderFileObject } from '../services/files';
import { fileTransferRoutes } from './files-transfer';

/*
 * The file manager (reference panel names and codes, pterodactyl-facts §4 and §9.3). Routes stay
 * thin: contract validation, access (404 → 409 → 403), one daemon call, the audit entry. Path
 * safety lives entirely in the daemon, which answers every escape like a missing file; so does
 * the disk limit, which the daemon holds in the server's configuration.
 */

type ServerParams = { Params: { server: string } };
const BASE = '/api/client/servers/:server/files';

export async function fileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { daemon } = deps;
  // Own encapsulation context: the raw-body and multipart parsers below never reach other routes.
  await app.register(async (files) => {
    files.get<ServerParams>(`${BASE}/list`, async (request) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.read');
      const { directory } = parseWith(directoryQuerySchema, request.query);
      const entries = await daemonCall(() => daemon.files.list(access.server.uuid, directory));
      return { object: 'list', data: entries.map(renderFileObject) };
    });

    files.get<ServerParams>(`${BASE}/contents`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.read-content');
      const { file } = parseWith(fileQuerySchema, request.query);
      const content = await daemonCall(() => daemon.files.read(access.server.uuid, file, deps.config.maxEditBytes), 'editor');
      await logFileActivity(deps, request, access, 'server:file.read', { file });
      return reply.type('text/plain; charset=utf-8').send(content);
    });

    files.post<ServerParams>(`${BASE}/copy`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.create');
      const { location } = parseWith(copyFileSchema, request.body);
      await daemonCall(() => daemon.files.copy(access.server.uuid, location));
      await logFileActivity(deps, request, access, 'server:file.copy', { file: location });
      return reply.status(204).send();
    });

    files.post<ServerParams>(`${BASE}/delete`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.delete');
      const { root, files: names } = parseWith(deleteFilesSchema, request.body);
      await daemonCall(() => daemon.files.delete(access.server.uuid, root, names));
      await logFileActivity(deps, request, access, 'server:file.delete', { directory: root, files: names });
      return reply.status(204).send();
    });

    files.post<ServerParams>(`${BASE}/create-folder`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.create');
      const { root, name } = parseWith(createFolderSchema, request.body);
      await daemonCall(() => daemon.files.createDirectory(access.server.uuid, root, name));
      await logFileActivity(deps, request, access, 'server:file.create-directory', { name, directory: root });
      return reply.status(204).send();
    });

    files.post<ServerParams>(`${BASE}/compress`, async (request) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.archive');
      const { root, files: names } = parseWith(compressSchema, request.body);
      const archive = await daemonCall(() => daemon.files.compress(access.server.uuid, root, names, deps.clock.now()));
      await logFileActivity(deps, request, access, 'server:file.compress', { directory: root, files: names });
      return renderFileObject(archive);
    });

    // The reference panel guards decompress with file.create, not file.archive (pterodactyl-facts §9.3).
    files.post<ServerParams>(`${BASE}/decompress`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.create');
      const { root, file } = parseWith(decompressSchema, request.body);
      // An archive may not expand past the server's remaining disk space nor the daemon's own caps.
      await daemonCall(() => daemon.files.decompress(access.server.uuid, root, file));
      await logFileActivity(deps, request, access, 'server:file.decompress', { directory: root, files: file });
      return reply.status(204).send();
    });

    files.put<ServerParams>(`${BASE}/rename`, async (request, reply) => {
      const access = await authorizeServerAction(deps, request, request.params.server, 'file.update');
      const { root, files: pairs } = parseWith(renameFilesSchema, request.body);
      await daemonCall(() => daemon.files.rename(access.server.uuid, root, pairs));
      await logFileActivity(deps, request, access, 'server:file.rename', { directory: root, files: pairs });
      return reply.status(204).send();
    });

    await fileTransferRoutes(files, deps);
  });
}
