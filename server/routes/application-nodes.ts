import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpointPath } from '../../src/contract/endpoint';
import { nodeEndpoints } from '../../src/contract/nodes';
import { panelOrigin } from '../config';
import type { AppDeps } from '../deps';
import { nodeListing } from '../db/repos';
import { badRequest } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { adminActivity, logActivity } from '../services/activity';
import { createNodeFromApi, deleteNodeFromApi, updateNodeFromApi } from '../services/node-admin';
import { NodeError, nodeConfiguration } from '../services/nodes';
import { applicationAllocationRoutes } from './application-allocations';
import { boundNode, renderNode, renderNodes } from './application-nodes-view';

/*
 * The application API's nodes (`/api/application/nodes`), as the reference panel's: the list with
 * its filters, sorts and pages, the deployable ones, one node and its Wings configuration, create,
 * change, delete while no server is on it; `include=allocations,location,servers`. The panel's own
 * node is listed and shown like the others; it has no configuration and cannot be deleted.
 */

const NO_VIABLE_NODES = 'No nodes satisfying the requirements specified for automatic deployment could be found.';

export async function applicationNodeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const bindNode = (request: FastifyRequest) => boundNode(deps, (request.params as { node: string }).node);
  await adminRoute(
    app,
    nodeEndpoints.list,
  )(async ({ request, caller, query }) => {
    const sort = query.sort ?? 'id';
    const result = await nodeListing.page(deps.db, {
      filters: {
        uuid: query['filter[uuid]'],
        name: query['filter[name]'],
        fqdn: query['filter[fqdn]'],
        daemon_token_id: query['filter[daemon_token_id]'],
      },
      sort: { column: sort.replace('-', '') as nodeListing.NodeSort, descending: sort.startsWith('-') },
      page: query.page,
      perPage: query.per_page,
    });
    return paginatedList(request, deps.config.appUrl, await renderNodes(deps, caller, result.rows, query.include), result.total, query);
  });

  // Registered before `/nodes/:node`, though Fastify prefers the static segment anyway.
  await adminRoute(
    app,
    nodeEndpoints.deployable,
  )(async ({ request, caller, query }) => {
    const result = await nodeListing.deployable(deps.db, {
      memory: query.memory,
      disk: query.disk,
      locationIds: [...(query.location_ids ?? []), ...(query['location_ids[]'] ?? [])],
      page: query.page ?? 1,
      perPage: query.page === undefined ? Number.MAX_SAFE_INTEGER : query.per_page,
    });
    if (result.total === 0) throw badRequest(NO_VIABLE_NODES, 'NoViableNodeException');
    const data = await renderNodes(deps, caller, result.rows, query.include);
    // Paged only when a page is asked for, as the reference.
    if (query.page === undefined) return { object: 'list' as const, data };
    return paginatedList(request, deps.config.appUrl, data, result.total, { page: query.page, per_page: query.per_page });
  });

  await adminRoute(
    app,
    nodeEndpoints.view,
  )(async ({ request, caller, query }) => renderNode(deps, caller, await boundNode(deps, (request.params as { node: string }).node), query.include));

  await adminRoute(app, nodeEndpoints.configuration, { bind: bindNode })(async ({ bound: node }) => {
    try {
      return nodeConfiguration(node, deps.nodes, panelOrigin(deps.config));
    } catch (error) {
      if (error instanceof NodeError) throw badRequest(error.message, 'DisplayException');
      throw error;
    }
  });

  await adminRoute(
    app,
    nodeEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const node = await createNodeFromApi(deps.db, deps.nodes, body);
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:node.create', { name: node.name }, deps.clock.now(), [{ type: 'node', id: node.id }]),
    );
    reply.status(201);
    const resource = `${(deps.config.appUrl ?? '').replace(/\/+$/, '')}${endpointPath(nodeEndpoints.view.path, { node: node.id })}`;
    return { ...(await renderNode(deps, caller, node)), meta: { resource } };
  });

  await adminRoute(app, nodeEndpoints.update, { bind: bindNode })(async ({ request, caller, body, bound: before }) => {
    const node = await updateNodeFromApi(deps.db, deps.nodes, before, body, deps.clock.now());
    const properties = {
      name: node.name,
      ...(before.name === node.name ? {} : { old: before.name }),
      ...(body.reset_secret === true ? { reset_secret: true } : {}),
    };
    await logActivity(deps.db, adminActivity(caller, request.ip, 'admin:node.update', properties, deps.clock.now(), [{ type: 'node', id: node.id }]));
    return renderNode(deps, caller, node);
  });

  await adminRoute(app, nodeEndpoints.delete, { bind: bindNode })(async ({ request, caller, bound: node }) => {
    await deleteNodeFromApi(deps.db, node);
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:node.delete', { name: node.name }, deps.clock.now(), [{ type: 'node', id: node.id }]),
    );
  });

  await applicationAllocationRoutes(app, deps);
}
