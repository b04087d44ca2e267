import type { FastifyInstance } from 'fastify';
import { applicationServerEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { applicationServers } from '../db/repos';
import { notFound } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { createApplicationServer } from '../services/application-server-create';
import { toHttpError } from '../http/daemon-errors';
import { applicationServerResource, boundServer, includesOf } from './application-server-resource';
import { applicationDatabaseRoutes } from './application-server-databases';
import { applicationServerWriteRoutes, serverEvent } from './application-server-writes';
import { RESOURCE_MISSING } from './application-users';

/*
 * The application API's servers (`/api/application/servers`), what billing systems call: the list
 * with the reference's filters, sort, pages and includes, one server by id or external id, and
 * creation; the changes to a server are `application-server-writes.ts`.
 */

export async function applicationServerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { list, view, external, create } = applicationServerEndpoints;

  await adminRoute(
    app,
    list,
  )(async ({ request, query, caller }) => {
    const sort = query.sort ?? 'id';
    const result = await applicationServers.page(deps.db, {
      filters: {
        uuid: query['filter[uuid]'],
        uuid_short: query['filter[uuidShort]'],
        name: query['filter[name]'],
        description: query['filter[description]'],
        docker_image: query['filter[image]'],
        external_id: query['filter[external_id]'],
      },
      sort: { column: sort.replace('-', '') as 'id' | 'uuid', descending: sort.startsWith('-') },
      page: query.page,
      perPage: query.per_page,
    });
    const include = includesOf(query.include);
    const data = [];
    for (const row of result.rows) data.push(await applicationServerResource(deps, row, caller, include));
    return paginatedList(request, deps.config.appUrl, data, result.total, query);
  });

  await adminRoute(
    app,
    view,
  )(async ({ request, query, caller }) =>
    applicationServerResource(deps, await boundServer(deps, (request.params as { server: string }).server), caller, includesOf(query.include)),
  );

  await adminRoute(
    app,
    external,
  )(async ({ request, query, caller }) => {
    const { external_id: externalId } = request.params as { external_id: string };
    const server = await applicationServers.findByExternalId(deps.db, externalId);
    if (!server) throw notFound(RESOURCE_MISSING);
    return applicationServerResource(deps, server, caller, includesOf(query.include));
  });

  await adminRoute(
    app,
    create,
  )(async ({ request, reply, caller, body }) => {
    // A node that does not answer is said as such (the daemon refusals' mapping), not as a 500.
    const server = await createApplicationServer(deps.db, deps.nodes, body, deps.config.allocationPorts, deps.clock.now()).catch((error: unknown) => {
      throw toHttpError(error);
    });
    await serverEvent(deps, request, caller, 'admin:server.create', server);
    reply.status(201);
    return applicationServerResource(deps, server, caller);
  });

  await applicationServerWriteRoutes(app, deps);
  await applicationDatabaseRoutes(app, deps);
}
