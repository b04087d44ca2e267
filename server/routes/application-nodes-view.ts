import { panelOrigin } from '../config';
import type { AppDeps } from '../deps';
import { serverItems } from '../services/application-server-items';
import { locations, nodeListing, nodes } from '../db/repos';
import type { AllocationRow, NodeRow } from '../db/schema';
import { notFound } from '../http/errors';
import type { Caller } from '../services/authentication';
import {
  allocationResource,
  includesOf,
  listOf,
  locationResource,
  mayRead,
  nodeResource,
  NULL_RESOURCE,
  type RelationshipValue,
} from './application-resources';
import { RESOURCE_MISSING } from './application-users';

/** Nodes and allocations as the application API shows them, with their `include=` relationships. */

export const NODE_INCLUDES = ['allocations', 'location', 'servers'] as const;
export const ALLOCATION_INCLUDES = ['node', 'server'] as const;

/** The node a route's `:node` names (a numeric id), or 404. */
export async function boundNode(deps: AppDeps, param: unknown): Promise<NodeRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const node = id === null ? undefined : await nodes.findById(deps.db, id);
  if (!node) throw notFound(RESOURCE_MISSING);
  return node;
}

export async function renderNodes(deps: AppDeps, caller: Caller, rows: NodeRow[], include: string | undefined) {
  const ids = rows.map((r) => r.id);
  const asked = includesOf(include, NODE_INCLUDES);
  const wants = (name: (typeof NODE_INCLUDES)[number], resource: 'allocations' | 'locations' | 'servers') =>
    asked.includes(name) && mayRead(caller, resource);
  const [allocated, held, places, servers] = await Promise.all([
    nodeListing.allocatedResources(deps.db, ids),
    wants('allocations', 'allocations') ? nodeListing.allocationsOf(deps.db, ids) : Promise.resolve([]),
    wants('location', 'locations')
      ? locations.findByIds(
          deps.db,
          rows.flatMap((r) => (r.location_id === null ? [] : [r.location_id])),
        )
      : Promise.resolve([]),
    wants('servers', 'servers') ? nodeListing.serversOf(deps.db, ids).then((found) => serverItems(deps.db, found)) : Promise.resolve([]),
  ]);
  const addressing = { panelOrigin: panelOrigin(deps.config) };
  return rows.map((row) => {
    if (asked.length === 0) return nodeResource(row, allocated.get(row.id), addressing);
    const relationships: Record<string, RelationshipValue> = {};
    if (asked.includes('allocations')) {
      relationships.allocations = mayRead(caller, 'allocations')
        ? listOf(held.filter((a) => a.node_id === row.id).map((a) => allocationResource(a)))
        : NULL_RESOURCE;
    }
    if (asked.includes('location')) {
      const place = places.find((l) => l.id === row.location_id);
      relationships.location = mayRead(caller, 'locations') && place ? locationResource(place) : NULL_RESOURCE;
    }
    if (asked.includes('servers')) {
      relationships.servers = mayRead(caller, 'servers') ? listOf(servers.filter((s) => s.attributes.node === row.id)) : NULL_RESOURCE;
    }
    return nodeResource(row, allocated.get(row.id), addressing, relationships);
  });
}

export async function renderNode(deps: AppDeps, caller: Caller, row: NodeRow, include?: string) {
  const [rendered] = await renderNodes(deps, caller, [row], include);
  if (!rendered) throw notFound(RESOURCE_MISSING);
  return rendered;
}

export async function renderAllocations(deps: AppDeps, caller: Caller, node: NodeRow, rows: AllocationRow[], include: string | undefined) {
  const asked = includesOf(include, ALLOCATION_INCLUDES);
  if (asked.length === 0) return rows.map((row) => allocationResource(row));
  const held = rows.flatMap((r) => (r.server_id === null ? [] : [r.server_id]));
  const holders =
    asked.includes('server') && mayRead(caller, 'servers') ? await serverItems(deps.db, await nodeListing.serversByIds(deps.db, held)) : [];
  const nodeItem = asked.includes('node') && mayRead(caller, 'nodes') ? await renderNode(deps, caller, node) : null;
  return rows.map((row) => {
    const relationships: Record<string, RelationshipValue> = {};
    if (asked.includes('node')) relationships.node = nodeItem ?? NULL_RESOURCE;
    if (asked.includes('server')) {
      relationships.server = holders.find((s) => s.attributes.id === row.server_id) ?? NULL_RESOURCE;
    }
    return allocationResource(row, relationships);
  });
}
