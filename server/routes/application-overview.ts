import type { FastifyInstance } from 'fastify';
import { adminOverviewEndpoints } from '../../src/contract/admin-overview';
import type { AppDeps } from '../deps';
import { adminRoute } from '../http/routes';
import { adminOverview } from '../services/admin-overview';

/** `GET /api/application/overview`: the admin area's landing page (a root admin's session only: no key resource opens it). */
export async function applicationOverviewRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await adminRoute(
    app,
    adminOverviewEndpoints.overview,
  )(async ({ caller }) => ({
    object: 'admin_overview' as const,
    attributes: await adminOverview(deps, { userId: caller.user.id, isAdmin: true }),
  }));
}
