import type { FastifyInstance } from 'fastify';
import { serverEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { servers } from '../db/repos';
import { paginatedList } from '../http/pagination';
import { clientRoute, serverRoute } from '../http/routes';
import { renderServers, renderServerWithMeta } from '../services/server-view';

/** The servers a caller can reach and one server. */
export async function serverRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await clientRoute(
    app,
    serverEndpoints.list,
  )(async ({ request, caller, query }) => {
    const viewer = { userId: caller.user.id, isAdmin: caller.user.root_admin === 1 };
    const page = await servers.list(deps.db, viewer, query);
    const data = await renderServers(deps.db, page.servers, viewer);
    return paginatedList(request, deps.config.appUrl, data, page.total, query);
  });

  // Answers in every state: a suspended or installing server can still be looked at.
  await serverRoute(app, deps, serverEndpoints.detail)(({ access }) => renderServerWithMeta(deps.db, access, deps.nodeHealth));
}
