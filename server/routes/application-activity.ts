import type { FastifyInstance } from 'fastify';
import { adminActivityEndpoints } from '../../src/contract/admin-activity';
import type { AppDeps } from '../deps';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { adminActivityPage } from '../services/admin-overview';

/** `GET /api/application/activity`: the admin activity log (a root admin's session only, as the overview: no key resource opens it). */
export async function applicationActivityRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await adminRoute(
    app,
    adminActivityEndpoints.list,
  )(async ({ request, caller, query }) => {
    const page = await adminActivityPage(deps, { userId: caller.user.id, isAdmin: true }, query);
    return paginatedList(request, deps.config.appUrl, page.data, page.total, query);
  });
}
