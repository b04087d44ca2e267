import { createHash, randomBytes } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import * as z from 'zod/mini';
import type { DaemonEvent } from '../capabilities';
import { checkToken } from '../tokens';
import { DaemonError, describeRefusal } from '../types';
import { extractArchive } from './archive-extract';
import { pathExists } from './confined';
import type { Configurations } from './configurations';
import type { DaemonLog } from './events';
import { diskLimitBytes } from './files';
import type { ServerLocks } from './locks';
import { writeAll } from './parts';
import { TEMP_DIR } from './paths';
import type { DiskQuotas } from './quota';
import { fail } from './transfer-replies';
import type { Volumes } from './volumes';

/*
 * The target of a transfer: `POST /api/transfers` (Wings' `router_transfer.go`), served with the
 * node's other browser routes. The panel signed a JWT for this node (HS256 with its key, `sub` =
 * the server, `scope` holding `transfer` when present); the server's configuration is fetched from
 * the panel, which answers this node for it while the transfer runs. The archive is spooled into
 * the receive area (swept at start) while it is hashed, capped at the disk limit plus a margin for
 * gzip's overhead; only when the checksum part matches is it extracted, with decompress's checks
 * for hostile members, into a staging folder that becomes the volume in one rename
 * (`volume-swap.ts`). Any failure leaves no volume and no configuration behind.
 */

const transferTokenSchema = z.object({ sub: z.uuid(), scope: z.optional(z.string()) });

const RECEIVING = 'The server is being transferred to this node.';

/** What a tar.gz may hold beyond its files' bytes: headers, padding, incompressible data. */
const ARCHIVE_MARGIN = (limit: number): number => Math.ceil(limit * 0.1) + 16 * 1024 * 1024;

export interface TransferReceiveParts {
  volumes: Volumes;
  configurations: Configurations;
  locks: ServerLocks;
  quotas: DiskQuotas;
  maxEntries: () => number;
  key: () => Promise<string | undefined>;
  now: () => Date;
  emit: (event: DaemonEvent) => void;
  log: DaemonLog;
}

const refuse = (reply: FastifyReply, status: 401 | 403, detail: string): FastifyReply =>
  fail(reply, { status, code: status === 401 ? 'UnauthorizedHttpException' : 'AccessDeniedHttpException', detail });

export async function transferReceiveRoutes(app: FastifyInstance, parts: TransferReceiveParts): Promise<void> {
  const receiving = new Set<string>();
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post('/api/transfers', async (request, reply) => {
      const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const key = await parts.key();
      const checked = bearer && key ? await checkToken(bearer, key, transferTokenSchema, parts.now()) : null;
      if (!checked?.ok) return refuse(reply, 401, 'The transfer token is invalid or expired.');
      const { sub: server, scope: scopes } = checked.payload;
      if (scopes !== undefined && !scopes.split(' ').includes('transfer')) return refuse(reply, 403, 'The token does not allow a transfer.');
      if (receiving.has(server)) return fail(reply, describeRefusal(new DaemonError('conflict', RECEIVING)));
      receiving.add(server);
      let placed = false;
      try {
        await receive(parts, server, request.parts.bind(request));
        placed = true;
        return await reply.status(200).send({});
      } catch (error) {
        if (!(error instanceof DaemonError)) parts.log(`receiving the transfer of ${server} failed`, error);
        return await fail(reply, describeRefusal(error instanceof DaemonError ? error : new DaemonError('bad_request', 'The transfer failed.')));
      } finally {
        receiving.delete(server);
        parts.emit({ type: 'transfer.completed', server, successful: placed });
      }
    });
  });
}

type PartsOf = (options: {
  limits: { fileSize: number; files: number; fields: number; fieldSize: number };
}) => AsyncIterableIterator<
  { type: 'file'; fieldname: string; file: AsyncIterable<Buffer> & { truncated: boolean } } | { type: 'field'; fieldname: string; value: unknown }
>;

async function receive(parts: TransferReceiveParts, server: string, partsOf: PartsOf): Promise<void> {
  const { volumes, locks } = parts;
  const spool = path.join(volumes.root, TEMP_DIR, `transfer-${server}-${randomBytes(6).toString('hex')}.tar.gz`);
  let created = false;
  try {
    // A copy this node is still deleting (the server left a moment ago and comes back now) is waited
    // for, not refused: the panel ends a transfer before the old node has finished deleting.
    await locks.quiet(server);
    await locks.exclusive(server, RECEIVING, async () => {
      if (await pathExists(volumes.path(server))) throw new DaemonError('conflict', 'The server already exists on this node.');
      const configuration = await parts.configurations.sync(server);
      const limit = diskLimitBytes(configuration);
      const fileSize = limit ? limit + ARCHIVE_MARGIN(limit) : Number.MAX_SAFE_INTEGER;
      await volumes.receiveArea();
      const handle = await fs.open(spool, 'wx+', 0o600);
      try {
        await spoolArchive(partsOf({ limits: { fileSize, files: 1, fields: 1, fieldSize: 256 } }), handle);
        await volumes.create(server);
        created = true;
        const limits = { bytes: limit, entries: parts.maxEntries() || Infinity };
        const caps = { maxBytes: Number.MAX_SAFE_INTEGER, maxEntries: limits.entries };
        const vol = await volumes.open(server);
        await parts.quotas.run(
          server,
          vol,
          limits,
          (budget) =>
            volumes.swap.replace(server, (staging) =>
              extractArchive(staging, [], handle, 'archive.tar.gz', caps, budget, { posixNames: true, links: true }),
            ),
          'replace',
        );
      } finally {
        await handle.close();
      }
    });
  } catch (error) {
    if (created) await volumes.remove(server, parts.log).catch((e: unknown) => parts.log(`could not remove the half-received ${server}`, e));
    parts.configurations.forget(server);
    throw error;
  } finally {
    await fs.rm(spool, { force: true }).catch(() => undefined);
  }
}

/** Writes the `archive` part into `handle` and checks it against the `checksum` part that follows it. */
async function spoolArchive(iterator: ReturnType<PartsOf>, handle: FileHandle): Promise<void> {
  const hash = createHash('sha256');
  let archived = false;
  let checksum: string | null = null;
  for await (const part of iterator) {
    if (part.type === 'file' && part.fieldname === 'archive' && !archived) {
      try {
        for await (const chunk of part.file) {
          hash.update(chunk);
          await writeAll(handle, chunk);
        }
      } catch (error) {
        if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw error;
      }
      if (part.file.truncated) throw tooLarge();
      archived = true;
    } else if (part.type === 'field' && part.fieldname === 'checksum' && archived && typeof part.value === 'string') {
      checksum = part.value.trim().toLowerCase();
    } else {
      throw new DaemonError('bad_request', 'A transfer is an archive part followed by its checksum.');
    }
  }
  if (!archived || checksum === null) throw new DaemonError('bad_request', 'A transfer is an archive part followed by its checksum.');
  if (checksum !== hash.digest('hex')) throw new DaemonError('bad_request', 'The archive does not match its checksum.');
}

const tooLarge = (): DaemonError => new DaemonError('no_space', 'The archive is larger than the server may hold.');
