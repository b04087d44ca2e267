import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { DaemonEvent } from '../daemon/capabilities';
import type { AppDeps } from '../deps';
import { backups, nodes, servers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import { callingNode, registerNodeAuthentication } from '../http/node-authentication';
import { notFound, parseWith } from '../http/errors';
import { logActivity } from '../services/activity';
import { handleDaemonEvent } from '../services/daemon-events';
import { failWorkCutOffByRestart } from '../services/node-reset';
import { installConfiguration, serverConfiguration } from '../services/server-configuration';
import { remoteNodeCallRoutes } from './remote-node-calls';
import { remoteTransferRoutes, serverOnNodeOrTarget } from './remote-transfers';

/*
 * The remote API (`/api/remote/*`): what a node calls on the panel, in Wings' shapes. Every route
 * answers only about servers on the calling node; the reference panel does not check that for a
 * single server's configuration, so any node's token could read any server's.
 */

const pageQuery = z.object({
  // Wings asks for page 0 first; Laravel reads any page below 1 as the first.
  page: z._default(z.coerce.number().check(z.int()), 1),
  per_page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 50),
});

const installReport = z.object({ successful: z.boolean(), reinstall: z.optional(z.boolean()) });
const backupReport = z.object({
  successful: z.boolean(),
  checksum: z.optional(z.nullable(z.string().check(z.maxLength(128)))),
  checksum_type: z.optional(z.nullable(z.string().check(z.maxLength(16)))),
  size: z.optional(z.nullable(z.int().check(z.nonnegative()))),
});
const restoreReport = z.object({ successful: z.boolean() });

export async function remoteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerNodeAuthentication(app, deps);
  remoteNodeCallRoutes(app, deps);
  // Handled as the local node's events are, then told to whoever waits on the node's own channel.
  const report = async (node: NodeRow, event: DaemonEvent) => {
    await handleDaemonEvent({ db, clock: deps.clock, warn: (m) => app.log.warn(m), daemons: deps.nodes }, event);
    deps.nodes.publish(node, event);
  };

  /** The server of this uuid when it lives on the calling node; 404 otherwise, whoever else has it. */
  const serverOnNode = async (node: NodeRow, uuid: string): Promise<ServerRow> => {
    // By its full uuid only (a short identifier names no server here), and only on this node.
    const server = await servers.findByIdentifier(db, uuid);
    if (!server || server.uuid !== uuid.toLowerCase() || server.node_id !== node.id) throw notFound();
    return server;
  };

  /** A booting node's servers, in pages as Laravel paginates them (Wings reads `meta.last_page`). */
  app.get('/servers', async (request) => {
    const node = callingNode(request);
    const query = parseWith(pageQuery, request.query);
    const page = Math.max(1, query.page);
    const perPage = query.per_page;
    const { uuids, total } = await nodes.serverPage(db, node.id, { offset: (page - 1) * perPage, limit: perPage });
    const data = [];
    for (const uuid of uuids) {
      const configuration = await serverConfiguration(db, uuid);
      if (configuration) data.push({ uuid, ...configuration });
    }
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
    return {
      data,
      links: { first: null, last: null, prev: null, next: null },
      meta: {
        current_page: page,
        from,
        last_page: lastPage,
        path: '/api/remote/servers',
        per_page: perPage,
        to: from === null ? null : from + data.length - 1,
        total,
      },
    };
  });

  /** One server's configuration, asked for at create, sync and every start. */
  /** The backup of this uuid and its server, when the server lives on the calling node. */
  const backupOnNode = async (node: NodeRow, uuid: string) => {
    const backup = await backups.findByUuid(db, uuid);
    const server = backup && (await servers.findById(db, backup.server_id));
    if (!backup || !server || server.node_id !== node.id) throw notFound();
    return { backup, server };
  };

  // The target of a running transfer fetches it too (it creates the server from it).
  app.get<{ Params: { uuid: string } }>('/servers/:uuid', async (request) => {
    const server = await serverOnNodeOrTarget(deps, callingNode(request), request.params.uuid);
    const configuration = await serverConfiguration(db, server.uuid);
    if (!configuration) throw notFound();
    return configuration;
  });

  /**
   * A node that booted ends what its last run left unfinished: a restore is over (failed, as the
   * reference records it) and an install cut off is failed rather than taken for done, so the
   * owner sees it and can reinstall.
   */
  /** What the node runs to install the server: the egg's script (empty when it has none). */
  app.get<{ Params: { uuid: string } }>('/servers/:uuid/install', async (request) => {
    const server = await serverOnNode(callingNode(request), request.params.uuid);
    const install = await installConfiguration(db, server.uuid);
    return install ?? { container_image: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'ash', script: '' };
  });

  /** The install ended: the server becomes usable, or failed (an install, or a reinstall). */
  app.post<{ Params: { uuid: string } }>('/servers/:uuid/install', async (request, reply) => {
    const node = callingNode(request);
    const server = await serverOnNode(node, request.params.uuid);
    const body = parseWith(installReport, request.body);
    await report(node, { type: 'install.completed', server: server.uuid, successful: body.successful, reinstall: body.reinstall === true });
    return reply.status(204).send();
  });

  /** A backup ended on the node: its checksum and size, or its failure. */
  app.post<{ Params: { uuid: string } }>('/backups/:uuid', async (request, reply) => {
    const node = callingNode(request);
    const { backup, server } = await backupOnNode(node, request.params.uuid);
    const body = parseWith(backupReport, request.body);
    const checksum = body.checksum ? `${body.checksum_type ?? 'sha1'}:${body.checksum}` : '';
    await report(node, {
      type: 'backup.completed',
      server: server.uuid,
      backup: backup.uuid,
      successful: body.successful,
      checksum,
      bytes: body.size ?? 0,
    });
    return reply.status(204).send();
  });

  /** A restore ended on the node. */
  app.post<{ Params: { uuid: string } }>('/backups/:uuid/restore', async (request, reply) => {
    const node = callingNode(request);
    const { backup, server } = await backupOnNode(node, request.params.uuid);
    const body = parseWith(restoreReport, request.body);
    await report(node, { type: 'restore.completed', server: server.uuid, backup: backup.uuid, successful: body.successful });
    return reply.status(204).send();
  });

  remoteTransferRoutes(app, deps);

  app.post('/servers/reset', async (request, reply) => {
    const node = callingNode(request);
    const now = deps.clock.now();
    for (const server of await servers.ofNodeWithStatus(db, node.id, ['installing', 'restoring_backup'])) {
      if (server.status === 'installing') {
        await servers.setStatusFrom(db, server.id, 'installing', 'install_failed', now);
      } else if (await servers.setStatusFrom(db, server.id, 'restoring_backup', null, now)) {
        await logActivity(db, {
          event: 'server:backup.restore-failed',
          ip: request.ip,
          subjects: [{ type: 'server', id: server.id }],
          timestamp: now,
        });
      }
    }
    await failWorkCutOffByRestart({ db, daemons: deps.nodes, clock: deps.clock, warn: (m) => app.log.warn(m) }, node);
    return reply.status(204).send();
  });
}
