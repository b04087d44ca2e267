import type { FastifyInstance } from 'fastify';
import { nodeEndpoints } from '../../src/contract/nodes';
import type { AppDeps } from '../deps';
import { allocations } from '../db/repos';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { adminActivity, logActivity } from '../services/activity';
import { addNodeAllocations, deleteNodeAllocation, nodeAllocation, updateNodeAllocation } from '../services/node-allocations';
import { allocationResource } from './application-resources';
import { boundNode, renderAllocations } from './application-nodes-view';
import { RESOURCE_MISSING } from './application-users';

/*
 * A node's allocations in the application API (`/api/application/nodes/:node/allocations`), as the
 * reference panel's: the list with its filters and pages, adding an address's ports (204), and
 * deleting one no server holds; and Aerie's own change of an allocation's alias and notes.
 */

/** The reference's `server_id` filter: a server's id, anything else the free allocations. */
const serverFilter = (value: string | undefined) => (value === undefined ? undefined : /^\d{1,15}$/.test(value) ? Number(value) : null);

export async function applicationAllocationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await adminRoute(
    app,
    nodeEndpoints.allocations,
  )(async ({ request, caller, query }) => {
    const node = await boundNode(deps, (request.params as { node: string }).node);
    const port = query['filter[port]'];
    const result = await allocations.pageOfNode(deps.db, node.id, {
      ip: query['filter[ip]'],
      port: port === undefined ? undefined : /^\d{1,5}$/.test(port) ? Number(port) : -1,
      ipAlias: query['filter[ip_alias]'],
      serverId: serverFilter(query['filter[server_id]']),
      page: query.page,
      perPage: query.per_page,
    });
    return paginatedList(request, deps.config.appUrl, await renderAllocations(deps, caller, node, result.rows, query.include), result.total, query);
  });

  await adminRoute(
    app,
    nodeEndpoints.createAllocations,
  )(async ({ request, caller, body }) => {
    const node = await boundNode(deps, (request.params as { node: string }).node);
    const made = await addNodeAllocations(deps.db, node, body);
    const summary = `${body.ip.trim()}:${body.ports.join(',')}`;
    const properties = { summary: summary.slice(0, 500), node: node.name, added: made.added };
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:allocation.create', properties, deps.clock.now(), [{ type: 'node', id: node.id }]),
    );
  });

  await adminRoute(
    app,
    nodeEndpoints.updateAllocation,
  )(async ({ request, caller, body }) => {
    const params = request.params as { node: string; allocation: string };
    const node = await boundNode(deps, params.node);
    const allocation = await nodeAllocation(deps.db, node, params.allocation, RESOURCE_MISSING);
    const changed = await updateNodeAllocation(deps.db, allocation, body);
    const properties = { allocation: `${allocation.ip}:${allocation.port}`, node: node.name, ...body };
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:allocation.update', properties, deps.clock.now(), [
        { type: 'node', id: node.id },
        { type: 'allocation', id: allocation.id },
      ]),
    );
    return allocationResource(changed);
  });

  await adminRoute(
    app,
    nodeEndpoints.deleteAllocation,
  )(async ({ request, caller }) => {
    const params = request.params as { node: string; allocation: string };
    const node = await boundNode(deps, params.node);
    const allocation = await nodeAllocation(deps.db, node, params.allocation, RESOURCE_MISSING);
    await deleteNodeAllocation(deps.db, allocation);
    const properties = { allocation: `${allocation.ip}:${allocation.port}`, node: node.name };
    await logActivity(
      deps.db,
      adminActivity(caller, request.ip, 'admin:allocation.delete', properties, deps.clock.now(), [
        { type: 'node', id: node.id },
        { type: 'allocation', id: allocation.id },
      ]),
    );
  });
}
