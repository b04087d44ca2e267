import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { DatabaseHostRow, DatabaseHostsTable } from '../schema';

export function all(db: Db): Promise<DatabaseHostRow[]> {
  return db.selectFrom('database_hosts').selectAll().orderBy('id').execute();
}

export function findByName(db: Db, name: string): Promise<DatabaseHostRow | undefined> {
  return db.selectFrom('database_hosts').selectAll().where('name', '=', name).executeTakeFirst();
}

export function findById(db: Db, id: number): Promise<DatabaseHostRow | undefined> {
  return db.selectFrom('database_hosts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insert(db: Db, host: Insertable<DatabaseHostsTable>): Promise<DatabaseHostRow> {
  return db.insertInto('database_hosts').values(host).returningAll().executeTakeFirstOrThrow();
}

export function update(db: Db, id: number, changes: Updateable<DatabaseHostsTable>): Promise<DatabaseHostRow> {
  return db.updateTable('database_hosts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function remove(db: Db, id: number): Promise<void> {
  await db.deleteFrom('database_hosts').where('id', '=', id).execute();
}

/** How many databases live on each host, by host id. */
export async function databaseCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('databases')
    .select(['database_host_id', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('database_host_id')
    .execute();
  return new Map(rows.map((r) => [r.database_host_id, Number(r.count)]));
}
