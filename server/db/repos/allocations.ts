import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { AllocationRow, AllocationsTable } from '../schema';

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
