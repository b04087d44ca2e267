import type { FastifyInstance } from 'fastify';
import { fileEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { daemonCall } from '../http/daemon-errors';
import { HttpError } from '../http/errors';
import { declaredLength } from '../http/request-context';
import { serverRoute } from '../http/routes';
import { renderFileObject, writeOptions } from '../services/files';

/*
 * The file manager (reference panel names, codes and permissions, declared in the contract's
 * `fileEndpoints`). Routes stay thin: one daemon call and the audit entry. Path safety lives
 * entirely in the daemon, which answers every escape like a missing file; so does the disk limit.
 */

const tooLarge = () => new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');

export async function fileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { daemon } = deps;

  await serverRoute(
    app,
    deps,
    fileEndpoints.list,
  )(async ({ server, query }) => {
    const entries = await daemonCall(() => daemon.listDirectory(server.uuid, query.directory));
    return { object: 'list', data: entries.map(renderFileObject) };
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.contents,
  )(async ({ server, query, activity }) => {
    const content = await daemonCall(() => daemon.readFile(server.uuid, query.file, deps.config.maxEditBytes), 'editor');
    await activity('server:file.read', { file: query.file });
    return content;
  });

  // The raw body is the file (any content type, as the reference panel's editor sends text/plain).
  await serverRoute(
    app,
    deps,
    fileEndpoints.write,
  )(async ({ request, access, server, query, body, activity }) => {
    const limit = deps.config.maxUploadBytes;
    const length = declaredLength(request.headers['content-length']);
    if (length !== null && length > limit) throw tooLarge();
    await daemonCall(() => daemon.writeFile(server.uuid, query.file, body, { maxBytes: limit, ...writeOptions(access) }));
    await activity('server:file.write', { file: query.file });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.copy,
  )(async ({ access, server, body, activity }) => {
    await daemonCall(() => daemon.copyFile(server.uuid, body.location, writeOptions(access)));
    await activity('server:file.copy', { file: body.location });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.delete,
  )(async ({ server, body, activity }) => {
    await daemonCall(() => daemon.deleteFiles(server.uuid, body.root, body.files));
    await activity('server:file.delete', { directory: body.root, files: body.files });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.createFolder,
  )(async ({ access, server, body, activity }) => {
    await daemonCall(() => daemon.createDirectory(server.uuid, body.root, body.name, writeOptions(access)));
    await activity('server:file.create-directory', { name: body.name, directory: body.root });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.compress,
  )(async ({ access, server, body, activity }) => {
    const archive = await daemonCall(() => daemon.compressFiles(server.uuid, body.root, body.files, deps.clock.now(), writeOptions(access)));
    await activity('server:file.compress', { directory: body.root, files: body.files });
    return renderFileObject(archive);
  });

  // An archive may not expand past the server's remaining disk space nor the daemon's own caps.
  await serverRoute(
    app,
    deps,
    fileEndpoints.decompress,
  )(async ({ access, server, body, activity }) => {
    await daemonCall(() => daemon.decompressFile(server.uuid, body.root, body.file, writeOptions(access)));
    // The reference panel logs the archive under `files`, as one string.
    await activity('server:file.decompress', { directory: body.root, files: body.file });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.rename,
  )(async ({ access, server, body, activity }) => {
    await daemonCall(() => daemon.renameFiles(server.uuid, body.root, body.files, writeOptions(access)));
    await activity('server:file.rename', { directory: body.root, files: body.files });
  });
}
