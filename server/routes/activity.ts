import type { FastifyInstance } from 'fastify';
import { activityEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { paginatedList } from '../http/pagination';
import { serverRoute } from '../http/routes';
import { listActivity } from '../services/activity-view';

/** A server's audit log. */
export async function activityRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(
    app,
    deps,
    activityEndpoints.server,
  )(async ({ request, access, query }) => {
    const viewer = { userId: access.caller.user.id, isAdmin: access.isAdmin };
    const { data, total } = await listActivity(deps.db, { type: 'server', id: access.server.id }, viewer, query);
    return paginatedList(request, deps.config.appUrl, data, total, query);
  });
}
