import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { DatabasesTable, ServerDatabaseRow } from '../schema';

export function forServer(db: Db, serverId: number): Promise<ServerDatabaseRow[]> {
  return db.selectFrom('databases').selectAll().where('server_id', '=', serverId).orderBy('id').execute();
}

export function onHost(db: Db, hostId: number): Promise<ServerDatabaseRow[]> {
  return db.selectFrom('databases').selectAll().where('database_host_id', '=', hostId).orderBy('id').execute();
}

export function findById(db: Db, id: number): Promise<ServerDatabaseRow | undefined> {
  return db.selectFrom('databases').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insert(db: Db, row: Insertable<DatabasesTable>): Promise<ServerDatabaseRow> {
  return db.insertInto('databases').values(row).returningAll().executeTakeFirstOrThrow();
}

export function update(db: Db, id: number, changes: Updateable<DatabasesTable>): Promise<ServerDatabaseRow> {
  return db.updateTable('databases').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function remove(db: Db, id: number): Promise<void> {
  await db.deleteFrom('databases').where('id', '=', id).execute();
}
