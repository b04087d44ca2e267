import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app';
import { ACTIVITY_FILTERS, activityQuerySchema } from '../../src/contract';
import { parseWith } from '../http/errors';
import { authorizeServerAction } from '../services/access';
import { listActivity } from '../services/activity-view';
import { paginatedList } from '../services/server-list';
import { rejectUnknownFilters } from './servers';

/** A server's audit log (spec §4.18). */
export async function activityRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get<{ Params: { server: string } }>('/api/client/servers/:server/activity', async (request) => {
    const access = await authorizeServerAction(deps, request, request.params.server, 'activity.read');
    const raw = request.query as Record<string, unknown>;
    rejectUnknownFilters(raw, ACTIVITY_FILTERS);
    const query = parseWith(activityQuerySchema, raw);
    const viewer = { userId: access.caller.user.id, isAdmin: access.isAdmin };
    const { data, total } = await listActivity(deps.db, { type: 'server', id: access.server.id }, viewer, query);
    return paginatedList(request, deps.config.appUrl, data, total, query);
  });
}
