import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app';
import { SERVER_LIST_FILTERS, serverListQuerySchema, unknownFilters } from '../../src/contract';
import { badRequest, parseWith } from '../http/errors';
import { serverAccess } from '../services/access';
import { requireCaller } from '../services/auth-context';
import { listServers, paginatedList } from '../services/server-list';
import { renderServers, renderServerWithMeta } from '../services/server-view';

/** The servers a caller can reach (spec §4.16) and one server (§4.17). */
export async function serverRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/api/client', async (request) => {
    const caller = requireCaller(request);
    const raw = request.query as Record<string, unknown>;
    rejectUnknownFilters(raw, SERVER_LIST_FILTERS);
    const query = parseWith(serverListQuerySchema, raw);
    const viewer = { userId: caller.user.id, isAdmin: caller.user.root_admin === 1 };
    const { servers, total } = await listServers(deps.db, viewer, query);
    const data = await renderServers(deps.db, servers, viewer);
    return paginatedList(request, deps.config.appUrl, data, total, query);
  });

  // Not state-checked: a suspended or installing server can still be looked at (pterodactyl-facts A2).
  app.get<{ Params: { server: string } }>('/api/client/servers/:server', async (request) => {
    const access = await serverAccess(deps, request, request.params.server);
    return renderServerWithMeta(deps.db, access);
  });
}

/** 400 `InvalidFilterQuery` for a `filter[...]` the endpoint does not offer, as the reference panel. */
export function rejectUnknownFilters(query: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = unknownFilters(query, allowed);
  if (unknown.length === 0) return;
  const names = (keys: readonly string[]) => keys.map((k) => k.slice('filter['.length, -1)).join(', ');
  throw badRequest(
    `Requested filter(s) \`${names(unknown).slice(0, 200)}\` are not allowed. Allowed filter(s) are \`${names(allowed)}\`.`,
    'InvalidFilterQuery',
  );
}
