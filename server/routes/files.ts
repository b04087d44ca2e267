import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import type { ServerRow, UserRow } from '../db/schema';
import { chunkBytesFor } from '../daemon/local/chunked-uploads';
import { daemonCall } from '../http/daemon-errors';
import { HttpError } from '../http/errors';
import { publicOrigin } from '../http/origin';
import { declaredLength, hangUpSignal } from '../http/request-context';
import { serverRoute } from '../http/routes';
import { renameProperties } from '../services/activity-files';
import { renderFileObject } from '../services/files';
import { signedTransferUrl } from '../services/node-tokens';

/*
 * The file manager (reference panel names, codes and permissions, declared in the contract's
 * `fileEndpoints`). Routes stay thin: one daemon call and the audit entry. Path safety lives
 * entirely in the daemon, which answers every escape like a missing file; so does the disk limit,
 * which the daemon holds in the server's configuration.
 */

const tooLarge = () => new HttpError(413, 'PayloadTooLargeHttpException', 'The file is larger than the allowed upload size.');

export async function fileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(
    app,
    deps,
    fileEndpoints.list,
  )(async ({ server, query, daemon }) => {
    const entries = await daemonCall(() => daemon.files.list(server.uuid, query.directory));
    return { object: 'list', data: entries.map(renderFileObject) };
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.contents,
  )(async ({ server, query, activity, daemon }) => {
    const max = deps.config.maxEditBytes;
    const content = await daemonCall(() => daemon.files.read(server.uuid, query.file, max), 'editor', max);
    await activity('server:file.read', { file: query.file });
    return content;
  });

  // The raw body is the file (any content type, as the reference panel's editor sends text/plain).
  await serverRoute(
    app,
    deps,
    fileEndpoints.write,
  )(async ({ request, server, query, body, activity, daemon }) => {
    const limit = deps.config.maxUploadBytes;
    const length = declaredLength(request.headers['content-length']);
    if (length !== null && length > limit) throw tooLarge();
    await daemonCall(() => daemon.files.write(server.uuid, query.file, body, { maxBytes: limit }));
    await activity('server:file.write', { file: query.file });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.copy,
  )(async ({ server, body, activity, daemon }) => {
    await daemonCall(() => daemon.files.copy(server.uuid, body.location));
    await activity('server:file.copy', { file: body.location });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.delete,
  )(async ({ server, body, activity, daemon }) => {
    // Only what was there is logged: names of missing files are no part of what happened.
    const deleted = await daemonCall(() => daemon.files.delete(server.uuid, body.root, body.files));
    if (deleted.length > 0) await activity('server:file.delete', { directory: body.root, files: deleted });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.createFolder,
  )(async ({ server, body, activity, daemon }) => {
    await daemonCall(() => daemon.files.createDirectory(server.uuid, body.root, body.name));
    await activity('server:file.create-directory', { name: body.name, directory: body.root });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.compress,
  )(async ({ reply, server, body, activity, daemon }) => {
    // Reading a large tree takes a while: a client that hangs up stops it (nothing is left behind).
    const signal = hangUpSignal(reply);
    const archive = await daemonCall(() => daemon.files.compress(server.uuid, body.root, body.files, deps.clock.now(), { signal }));
    await activity('server:file.compress', { directory: body.root, files: body.files });
    return renderFileObject(archive);
  });

  // An archive may not expand past the server's remaining disk space nor the daemon's own caps.
  await serverRoute(
    app,
    deps,
    fileEndpoints.decompress,
  )(async ({ server, body, activity, daemon }) => {
    await daemonCall(() => daemon.files.decompress(server.uuid, body.root, body.file));
    // The reference panel logs the archive under `files`, as one string.
    await activity('server:file.decompress', { directory: body.root, files: body.file });
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.rename,
  )(async ({ server, body, activity, daemon }) => {
    const moved = await daemonCall(() => daemon.files.rename(server.uuid, body.root, body.files));
    if (moved.length > 0) await activity('server:file.rename', renameProperties(body.root, moved));
  });

  // Signed links to the node itself (`services/node-tokens.ts`).
  const signed = (
    request: FastifyRequest,
    server: ServerRow,
    user: UserRow,
    scope: 'file-download' | 'file-upload',
    claims: Record<string, unknown>,
  ) =>
    signedTransferUrl(deps.db, deps.nodes, {
      server,
      user,
      scope,
      path: scope === 'file-download' ? '/download/file' : '/upload/file',
      claims,
      panelOrigin: publicOrigin(request, deps.config.appUrl),
      now: deps.clock.now(),
    });

  await serverRoute(
    app,
    deps,
    fileEndpoints.download,
  )(async ({ request, caller, server, query, activity }) => {
    const url = await signed(request, server, caller.user, 'file-download', { file_path: query.file });
    // Written when the link is handed out, as the reference panel does: the node serves it unseen.
    await activity('server:file.download', { file: query.file });
    return url;
  });

  await serverRoute(
    app,
    deps,
    fileEndpoints.upload,
  )(async ({ request, caller, server, daemon }) => {
    const link = await signed(request, server, caller.user, 'file-upload', {});
    // Known only for the panel's own node: a Wings node keeps its own limit (upload_limit) and takes no chunks.
    if (daemon !== deps.nodes.local) return link;
    const { maxUploadBytes } = deps.config;
    return { ...link, attributes: { ...link.attributes, max_file_bytes: maxUploadBytes, chunk_bytes: chunkBytesFor(maxUploadBytes) } };
  });
}
