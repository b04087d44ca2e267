import { sql } from 'kysely';
import type { Db } from '../index';
import type { AllocationRow, NodeRow, ServerRow } from '../schema';
import { filteredPage } from './like';

/*
 * The application API's queries on nodes and their allocations (issue 25 §2): pages with the
 * reference's filters and sorts, what is allocated on each, which have room for a deployment.
 */

export type NodeSort = 'id' | 'uuid' | 'memory' | 'disk';

export interface NodePageQuery {
  filters: { uuid?: string; name?: string; fqdn?: string; daemon_token_id?: string };
  sort: { column: NodeSort; descending: boolean };
  page: number;
  perPage: number;
}

export async function page(db: Db, query: NodePageQuery): Promise<{ rows: NodeRow[]; total: number }> {
  return filteredPage(db, 'nodes', query);
}

export function ofLocations(db: Db, locationIds: readonly number[]): Promise<NodeRow[]> {
  if (locationIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('nodes').selectAll().where('location_id', 'in', locationIds).orderBy('id').execute();
}

/** The memory and disk (MiB) the servers on each of these nodes are given, as the reference sums them. */
export async function allocatedResources(db: Db, nodeIds: readonly number[]): Promise<Map<number, { memory: number; disk: number }>> {
  if (nodeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('servers')
    .select(['node_id', (eb) => eb.fn.sum<number>('memory').as('memory'), (eb) => eb.fn.sum<number>('disk').as('disk')])
    .where('node_id', 'in', nodeIds)
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((r) => [r.node_id, { memory: Number(r.memory), disk: Number(r.disk) }]));
}

export function serversOf(db: Db, nodeIds: readonly number[]): Promise<ServerRow[]> {
  if (nodeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('servers').selectAll().where('node_id', 'in', nodeIds).orderBy('id').execute();
}

export function serversByIds(db: Db, ids: readonly number[]): Promise<ServerRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('servers').selectAll().where('id', 'in', ids).execute();
}

export function allocationsOf(db: Db, nodeIds: readonly number[]): Promise<AllocationRow[]> {
  if (nodeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('allocations').selectAll().where('node_id', 'in', nodeIds).orderBy('id').execute();
}

export interface DeployableQuery {
  memory: number;
  disk: number;
  locationIds: readonly number[];
  page: number;
  perPage: number;
}

/*
 * The reference's FindViableNodesService: public nodes whose servers' memory and disk plus the new
 * server's fit within the node's figures raised by its over-allocation percentage. A figure of 0 is
 * Aerie's "not said" (placement.ts): such a node promises nothing on that figure and is not held
 * to it, as placement does not.
 */
export async function deployable(db: Db, query: DeployableQuery): Promise<{ rows: NodeRow[]; total: number }> {
  let base = db
    .selectFrom('nodes')
    .leftJoin('servers', 'servers.node_id', 'nodes.id')
    .where('nodes.public', '=', 1)
    .groupBy('nodes.id')
    .having(
      sql<boolean>`(nodes.memory = 0 or coalesce(sum(servers.memory), 0) + ${query.memory} <= nodes.memory * (1 + nodes.memory_overallocate / 100.0))`,
    )
    .having(sql<boolean>`(nodes.disk = 0 or coalesce(sum(servers.disk), 0) + ${query.disk} <= nodes.disk * (1 + nodes.disk_overallocate / 100.0))`);
  if (query.locationIds.length > 0) base = base.where('nodes.location_id', 'in', query.locationIds);
  const all = await base.select('nodes.id').execute();
  const ids = all.map((r) => r.id).slice((query.page - 1) * query.perPage, query.page * query.perPage);
  const rows = ids.length === 0 ? [] : await db.selectFrom('nodes').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return { rows, total: all.length };
}
