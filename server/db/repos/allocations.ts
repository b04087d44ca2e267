import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { AllocationRow, AllocationsTable } from '../schema';
import { escapeLike, likeExpr } from './like';

/** Every allocation assigned to these servers, oldest first. */
export function ofServers(db: Db, serverIds: readonly number[]): Promise<AllocationRow[]> {
  if (serverIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('allocations').selectAll().where('server_id', 'in', serverIds).orderBy('id').execute();
}

export function findById(db: Db, id: number): Promise<AllocationRow | undefined> {
  return db.selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insert(db: Db, allocation: Insertable<AllocationsTable>): Promise<AllocationRow> {
  return db.insertInto('allocations').values(allocation).returningAll().executeTakeFirstOrThrow();
}

export async function insertMany(db: Db, allocations: Insertable<AllocationsTable>[]): Promise<void> {
  if (allocations.length) await db.insertInto('allocations').values(allocations).execute();
}

/** How many allocations a server holds. */
export async function countOfServer(db: Db, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('allocations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The ports of an address of a node within a range, each with the server holding it (null: free). */
export function inRange(db: Db, nodeId: number, ip: string, start: number, end: number): Promise<Pick<AllocationRow, 'id' | 'port' | 'server_id'>[]> {
  return db
    .selectFrom('allocations')
    .select(['id', 'port', 'server_id'])
    .where('node_id', '=', nodeId)
    .where('ip', '=', ip)
    .where('port', '>=', start)
    .where('port', '<=', end)
    .orderBy('port')
    .execute();
}

/** Gives an allocation to a server (`null`: back to the node, its notes cleared). */
export function assign(db: Db, id: number, serverId: number | null): Promise<AllocationRow> {
  const notes = serverId === null ? { notes: null } : {};
  return db
    .updateTable('allocations')
    .set({ server_id: serverId, ...notes })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setNotes(db: Db, id: number, notes: string | null): Promise<AllocationRow> {
  return db.updateTable('allocations').set({ notes }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Sets the alias and notes given (a key left out is kept). */
export function setLabels(db: Db, id: number, labels: { ip_alias?: string | null; notes?: string | null }): Promise<AllocationRow> {
  return db.updateTable('allocations').set(labels).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export interface NodeAllocationQuery {
  /** Exact, as the reference filters them. */
  ip?: string;
  port?: number;
  /** Part of the alias. */
  ipAlias?: string;
  /** A server's id; null: the free ones. */
  serverId?: number | null;
  page: number;
  perPage: number;
}

/** One page of a node's allocations, oldest first. */
export async function pageOfNode(db: Db, nodeId: number, query: NodeAllocationQuery): Promise<{ rows: AllocationRow[]; total: number }> {
  let base = db.selectFrom('allocations').where('node_id', '=', nodeId);
  if (query.ip !== undefined) base = base.where('ip', '=', query.ip);
  if (query.port !== undefined) base = base.where('port', '=', query.port);
  if (query.ipAlias !== undefined && query.ipAlias !== '') base = base.where(likeExpr('allocations.ip_alias', `%${escapeLike(query.ipAlias)}%`));
  if (query.serverId !== undefined)
    base = query.serverId === null ? base.where('server_id', 'is', null) : base.where('server_id', '=', query.serverId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows, total: Number(total.n) };
}

/** Adds allocations, skipping those the node has already (same address and port), as the reference's insertIgnore; how many were new. */
export async function insertIgnore(db: Db, rows: Insertable<AllocationsTable>[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const result = await db
      .insertInto('allocations')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['node_id', 'ip', 'port']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/** Deletes an allocation no server holds; false when one does (checked in the same statement). */
export async function removeFree(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('allocations').where('id', '=', id).where('server_id', 'is', null).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The node's first free allocation that is not one of `ip`'s ports in `start..end` (lowest address, then port). */
export function firstFreeOutside(db: Db, nodeId: number, ip: string, start: number, end: number): Promise<AllocationRow | undefined> {
  return db
    .selectFrom('allocations')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('server_id', 'is', null)
    .where((eb) => eb.not(eb.and([eb('ip', '=', ip), eb('port', '>=', start), eb('port', '<=', end)])))
    .orderBy('ip')
    .orderBy('port')
    .executeTakeFirst();
}
