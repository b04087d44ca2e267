import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { AppDeps } from '../deps';
import { nodes, servers } from '../db/repos';
import { callingNode, registerNodeAuthentication } from '../http/node-authentication';
import { notFound, parseWith } from '../http/errors';
import { logActivity } from '../services/activity';
import { serverConfiguration } from '../services/server-configuration';

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

export async function remoteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerNodeAuthentication(app, deps);

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
  app.get<{ Params: { uuid: string } }>('/servers/:uuid', async (request) => {
    const node = callingNode(request);
    const configuration = (await nodes.hasServer(db, node.id, request.params.uuid)) ? await serverConfiguration(db, request.params.uuid) : undefined;
    if (!configuration) throw notFound();
    return configuration;
  });

  /**
   * A node that booted ends what its last run left unfinished: a restore is over (failed, as the
   * reference records it) and an install cut off is failed rather than taken for done, so the
   * owner sees it and can reinstall.
   */
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
    return reply.status(204).send();
  });
}
