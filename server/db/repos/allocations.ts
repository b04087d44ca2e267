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

/** The highest port used on an address of a node, or undefined when none is. */
export async function highestPort(db: Db, nodeId: number, ip: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('allocations')
    .select((eb) => eb.fn.max('port').as('max'))
    .where('node_id', '=', nodeId)
    .where('ip', '=', ip)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? undefined : Number(row.max);
}

export function insert(db: Db, allocation: Insertable<AllocationsTable>): Promise<AllocationRow> {
  return db.insertInto('allocations').values(allocation).returningAll().executeTakeFirstOrThrow();
}

export async function insertMany(db: Db, allocations: Insertable<AllocationsTable>[]): Promise<void> {
  if (allocations.length) await db.insertInto('allocations').values(allocations).execute();
}
