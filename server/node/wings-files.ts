import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { LocalDaemon } from '../daemon/local';
import type { DaemonFileStat } from '../daemon/types';
import { attachmentDisposition } from '../lib/content-disposition';
import { hangUpSignal } from '../http/request-context';
import {
  copyRequest,
  createDirectoryRequest,
  decompressRequest,
  directoryQuery,
  fileQuery,
  filesRequest,
  renameRequest,
} from '../daemon/wings/requests';
import type { NodeRuntime } from './node-runtime';
import { parseBody, WingsError } from './wings-http';

/*
 * Wings' file routes (`router_server_files.go`) over the local daemon's file manager, which
 * resolves every path beneath the volume and answers an escape as a missing file. chmod and pull
 * are not served: the daemon has no such capability (Wings answers them; the panel's calls fail).
 */

type Params = { Params: { server: string } };

/** Wings' stat object (`server/filesystem/stat.go`). */
export function wingsStat(stat: DaemonFileStat) {
  return {
    name: stat.name,
    created: new Date(stat.createdMs).toISOString(),
    modified: new Date(stat.modifiedMs).toISOString(),
    mode: stat.mode,
    mode_bits: stat.modeBits,
    size: stat.size,
    directory: stat.isDirectory,
    file: stat.isFile,
    symlink: stat.isSymlink,
    mime: stat.mimetype,
  };
}

export async function wingsFileRoutes(app: FastifyInstance, daemon: LocalDaemon, runtime: NodeRuntime, maxWriteBytes: number): Promise<void> {
  const files = daemon.files;
  const base = '/api/servers/:server/files';

  app.get<Params>(`${base}/list-directory`, async (request) => {
    const server = runtime.held(request.params.server);
    const { directory } = parseBody(directoryQuery, request.query);
    return (await files.list(server, directory)).map(wingsStat);
  });

  app.get<Params>(`${base}/contents`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const query = parseBody(fileQuery, request.query);
    const { stat, stream } = await files.open(server, query.file);
    reply.header('X-Mime-Type', stat.mimetype).header('Content-Length', String(stat.size));
    if (query.download !== undefined) {
      reply.header('Content-Disposition', attachmentDisposition(stat.name)).type('application/octet-stream');
    }
    return reply.send(stream);
  });

  // The raw body of a write is streamed to the file manager, whatever its content type.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.post<Params>(`${base}/write`, async (request, reply) => {
      const server = runtime.held(request.params.server);
      const { file } = parseBody(fileQuery, request.query);
      if (request.headers['content-length'] === undefined) throw new WingsError(400, 'Missing Content-Length');
      // Through a stream of its own, which a refused write may destroy: the request itself is then
      // read to its end (discarded) before the answer, so the panel reads the refusal (a full disk,
      // say) rather than a connection reset while it still sends.
      const body = new PassThrough();
      request.raw.pipe(body);
      try {
        await files.write(server, file, body, { maxBytes: maxWriteBytes });
      } catch (error) {
        request.raw.unpipe(body);
        await drained(request.raw);
        throw error;
      }
      return reply.status(204).send();
    });
  });

  app.post<Params>(`${base}/create-directory`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(createDirectoryRequest, request.body);
    await files.createDirectory(server, body.path, body.name);
    return reply.status(204).send();
  });

  app.put<Params>(`${base}/rename`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(renameRequest, request.body);
    await files.rename(server, body.root, body.files);
    return reply.status(204).send();
  });

  app.post<Params>(`${base}/copy`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    await files.copy(server, parseBody(copyRequest, request.body).location);
    return reply.status(204).send();
  });

  app.post<Params>(`${base}/delete`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(filesRequest, request.body);
    await files.delete(server, body.root, body.files);
    return reply.status(204).send();
  });

  app.post<Params>(`${base}/compress`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(filesRequest, request.body);
    // The panel gave up (its 15 minutes passed, or it went away): the archive is not finished.
    return wingsStat(await files.compress(server, body.root, body.files, new Date(), { signal: hangUpSignal(reply) }));
  });

  app.post<Params>(`${base}/decompress`, async (request, reply) => {
    const server = runtime.held(request.params.server);
    const body = parseBody(decompressRequest, request.body);
    await files.decompress(server, body.root, body.file);
    return reply.status(204).send();
  });
}

/** Reads what is left of a request body, discarding it; gives up after 30 s (the answer then goes anyway). */
async function drained(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return;
  raw.resume();
  await Promise.race([once(raw, 'end'), once(raw, 'close'), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]).catch(() => undefined);
}
