import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpointPath } from '../../src/contract/endpoint';
import { locationEndpoints } from '../../src/contract/locations';
import type { AppDeps } from '../deps';
import { serverItems } from '../services/application-server-items';
import { locations, nodeListing } from '../db/repos';
import type { LocationRow } from '../db/schema';
import { notFound } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { adminActivity, logActivity } from '../services/activity';
import type { Caller } from '../services/authentication';
import { createLocation, deleteLocation, updateLocation } from '../services/locations';
import { includesOf, listOf, locationResource, mayRead, NULL_RESOURCE, type RelationshipValue } from './application-resources';
import { RESOURCE_MISSING } from './application-users';
import { renderNodes } from './application-nodes-view';

/*
 * The application API's locations (`/api/application/locations`), as the reference panel's: the
 * list with its filters, sort and pages, one location, create, change, and delete while no node
 * is in it; `include=nodes,servers`.
 */

const LOCATION_INCLUDES = ['nodes', 'servers'] as const;

async function boundLocation(deps: AppDeps, param: unknown): Promise<LocationRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const location = id === null ? undefined : await locations.findById(deps.db, id);
  if (!location) throw notFound(RESOURCE_MISSING);
  return location;
}

async function renderLocations(deps: AppDeps, caller: Caller, rows: LocationRow[], include: string | undefined) {
  const asked = includesOf(include, LOCATION_INCLUDES);
  if (asked.length === 0) return rows.map((row) => locationResource(row));
  const nodes = await nodeListing.ofLocations(
    deps.db,
    rows.map((r) => r.id),
  );
  const [renderedNodes, servers] = await Promise.all([
    asked.includes('nodes') && mayRead(caller, 'nodes') ? renderNodes(deps, caller, nodes, undefined) : Promise.resolve([]),
    asked.includes('servers') && mayRead(caller, 'servers')
      ? nodeListing
          .serversOf(
            deps.db,
            nodes.map((n) => n.id),
          )
          .then((rows) => serverItems(deps.db, rows))
      : Promise.resolve([]),
  ]);
  const locationOf = new Map(nodes.map((n) => [n.id, n.location_id]));
  return rows.map((row) => {
    const relationships: Record<string, RelationshipValue> = {};
    if (asked.includes('nodes')) {
      relationships.nodes = mayRead(caller, 'nodes') ? listOf(renderedNodes.filter((n) => n.attributes.location_id === row.id)) : NULL_RESOURCE;
    }
    if (asked.includes('servers')) {
      relationships.servers = mayRead(caller, 'servers')
        ? listOf(servers.filter((s) => locationOf.get(s.attributes.node) === row.id))
        : NULL_RESOURCE;
    }
    return locationResource(row, relationships);
  });
}

async function renderLocation(deps: AppDeps, caller: Caller, row: LocationRow, include: string | undefined) {
  const [rendered] = await renderLocations(deps, caller, [row], include);
  return rendered ?? locationResource(row);
}

export async function applicationLocationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const bindLocation = (request: FastifyRequest) => boundLocation(deps, (request.params as { location: string }).location);
  await adminRoute(
    app,
    locationEndpoints.list,
  )(async ({ request, caller, query }) => {
    const result = await locations.page(deps.db, {
      filters: { short: query['filter[short]'], long: query['filter[long]'] },
      descending: query.sort === '-id',
      page: query.page,
      perPage: query.per_page,
    });
    return paginatedList(request, deps.config.appUrl, await renderLocations(deps, caller, result.rows, query.include), result.total, query);
  });

  await adminRoute(app, locationEndpoints.view, { bind: bindLocation })(async ({ caller, query, bound: location }) => {
    return renderLocation(deps, caller, location, query.include);
  });

  await adminRoute(
    app,
    locationEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const location = await createLocation(deps.db, body, deps.clock.now());
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:location.create', { short: location.short }, deps.clock.now(), [
        { type: 'location', id: location.id },
      ]),
    );
    reply.status(201);
    const resource = `${(deps.config.appUrl ?? '').replace(/\/+$/, '')}${endpointPath(locationEndpoints.view.path, { location: location.id })}`;
    return { ...locationResource(location), meta: { resource } };
  });

  await adminRoute(app, locationEndpoints.update, { bind: bindLocation })(async ({ request, caller, body, bound: before }) => {
    const location = await updateLocation(deps.db, before, body, deps.clock.now());
    const properties = { short: location.short, ...(before.short === location.short ? {} : { old: before.short }) };
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:location.update', properties, deps.clock.now(), [{ type: 'location', id: location.id }]),
    );
    return locationResource(location);
  });

  await adminRoute(app, locationEndpoints.delete, { bind: bindLocation })(async ({ request, caller, bound: location }) => {
    await deleteLocation(deps.db, location);
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:location.delete', { short: location.short }, deps.clock.now(), [
        { type: 'location', id: location.id },
      ]),
    );
  });
}
