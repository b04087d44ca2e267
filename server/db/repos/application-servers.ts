import type { Db } from '../index';
import type { AllocationRow, LocationRow, ServerRow } from '../schema';
import { filteredPage } from './like';

/** The application API's queries on servers: its list, external ids, deployment, and operator changes. */

export type ServerFilter = 'uuid' | 'uuid_short' | 'name' | 'description' | 'docker_image' | 'external_id';

export interface ServerPageQuery {
  /** Parts of these columns (the reference's filters match anywhere in the value). */
  filters: Partial<Record<ServerFilter, string>>;
  sort: { column: 'id' | 'uuid'; descending: boolean };
  page: number;
  perPage: number;
}

/** One page of every server on the panel and how many match in all. */
export async function page(db: Db, query: ServerPageQuery): Promise<{ rows: ServerRow[]; total: number }> {
  return filteredPage(db, 'servers', query);
}

export function findByExternalId(db: Db, externalId: string): Promise<ServerRow | undefined> {
  return db.selectFrom('servers').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

/** Whether another server than `exceptId` has this external id. */
export async function externalIdTaken(db: Db, externalId: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('servers').select('id').where('external_id', '=', externalId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export function allocationsByIds(db: Db, ids: readonly number[]): Promise<AllocationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('allocations').selectAll().where('id', 'in', ids).execute();
}

/**
 * Gives the allocations to the server, only those still free: the number given, so a caller in a
 * transaction sees a port taken meanwhile.
 */
export async function assignFree(db: Db, ids: readonly number[], serverId: number): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('allocations')
    .set({ server_id: serverId })
    .where('id', 'in', ids)
    .where('server_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Hands these allocations of the server back to its node (their notes cleared). */
export async function release(db: Db, ids: readonly number[], serverId: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('allocations').set({ server_id: null, notes: null }).where('id', 'in', ids).where('server_id', '=', serverId).execute();
}

/** A node's free allocations, lowest port first, on the addresses of `ips` when given. */
export function freeAllocationsOf(db: Db, nodeId: number): Promise<AllocationRow[]> {
  return db
    .selectFrom('allocations')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .orderBy('port')
    .orderBy('id')
    .execute();
}

/** The addresses of a node on which some allocation is held by a server. */
export async function usedAddresses(db: Db, nodeId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('allocations').select('ip').distinct().where('node_id', '=', nodeId).where('server_id', 'is not', null).execute();
  return new Set(rows.map((r) => r.ip));
}

/** The disk limits (MiB) of the servers on each node that has some. */
export async function committedDisk(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('servers')
    .select(['node_id', (eb) => eb.fn.sum<number>('disk').as('mib')])
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((r) => [r.node_id, Number(r.mib)]));
}

export function locationOfNode(db: Db, nodeId: number): Promise<LocationRow | undefined> {
  return db
    .selectFrom('locations')
    .innerJoin('nodes', 'nodes.location_id', 'locations.id')
    .selectAll('locations')
    .where('nodes.id', '=', nodeId)
    .executeTakeFirst();
}

export type OperatorChange = Partial<
  Pick<
    ServerRow,
    | 'name'
    | 'description'
    | 'owner_id'
    | 'external_id'
    | 'memory'
    | 'swap'
    | 'disk'
    | 'io'
    | 'cpu'
    | 'threads'
    | 'oom_disabled'
    | 'allocation_id'
    | 'database_limit'
    | 'allocation_limit'
    | 'backup_limit'
    | 'startup'
    | 'docker_image'
    | 'skip_scripts'
  >
>;

/** An operator's change of a server's columns, stamped as changed now. */
export function change(db: Db, serverId: number, columns: OperatorChange, now: Date): Promise<ServerRow> {
  return db
    .updateTable('servers')
    .set({ ...columns, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
