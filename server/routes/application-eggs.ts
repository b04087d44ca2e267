import type { FastifyInstance } from 'fastify';
import { eggEndpoints, nestEndpoints } from '../../src/contract/eggs';
import type { AppDeps } from '../deps';
import { eggs, nests } from '../db/repos';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { boundEgg, boundNest, eggResource, nestResource, renderEggs, renderNests } from './application-egg-resources';

/*
 * The application API's nests and eggs (`/api/application/nests/...`), as the reference panel's:
 * the nests paged, one nest, a nest's eggs (all of them), one egg; `include=` as its transformers.
 */

export async function applicationEggRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await adminRoute(
    app,
    nestEndpoints.list,
  )(async ({ request, caller, query }) => {
    const result = await nests.page(deps.db, { page: query.page, perPage: query.per_page });
    return paginatedList(request, deps.config.appUrl, await renderNests(deps, caller, result.rows, query.include), result.total, query);
  });

  await adminRoute(
    app,
    nestEndpoints.view,
  )(async ({ request, caller, query }) => {
    const nest = await boundNest(deps, (request.params as { nest?: unknown }).nest);
    const [rendered] = await renderNests(deps, caller, [nest], query.include);
    return rendered ?? nestResource(nest);
  });

  await adminRoute(
    app,
    eggEndpoints.list,
  )(async ({ request, caller, query }) => {
    const nest = await boundNest(deps, (request.params as { nest?: unknown }).nest);
    const rows = await eggs.ofNests(deps.db, [nest.id]);
    return { object: 'list' as const, data: await renderEggs(deps, caller, rows, query.include) };
  });

  await adminRoute(
    app,
    eggEndpoints.view,
  )(async ({ request, caller, query }) => {
    const egg = await boundEgg(deps, request.params);
    const [rendered] = await renderEggs(deps, caller, [egg], query.include);
    return rendered ?? eggResource(egg);
  });
}
