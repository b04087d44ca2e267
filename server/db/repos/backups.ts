import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../index';
import type { BackupRow, Database } from '../schema';
import { parseJsonColumn, stringArray } from './json';

/** Backups of servers; soft-deleted rows are left out of everything but the throttle's count. */

/** A backup with its ignored patterns read. */
export type Backup = Omit<BackupRow, 'ignored_files'> & { ignored_files: string[] };

function toBackup(row: BackupRow): Backup {
  return { ...row, ignored_files: parseJsonColumn(row.ignored_files, stringArray, []) };
}

/** Running or successful: what the limit and the throttle count (a failed backup is neither). */
const notFailed = (eb: ExpressionBuilder<Database, 'backups'>) => eb.or([eb('completed_at', 'is', null), eb('is_successful', '=', 1)]);

export async function insert(
  db: Db,
  values: { uuid: string; server_id: number; name: string; ignored_files: string[]; is_locked: boolean; now: Date },
): Promise<Backup> {
  const row = await db
    .insertInto('backups')
    .values({
      uuid: values.uuid,
      server_id: values.server_id,
      name: values.name,
      ignored_files: JSON.stringify(values.ignored_files),
      disk: 'local',
      checksum: null,
      bytes: 0,
      is_successful: 0,
      is_locked: values.is_locked ? 1 : 0,
      created_at: values.now.toISOString(),
      completed_at: null,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toBackup(row);
}

/** A backup of this server by uuid; another server's, or a deleted one, is none. */
export async function findOfServer(db: Db, serverId: number, uuid: string): Promise<Backup | undefined> {
  const row = await db
    .selectFrom('backups')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('uuid', '=', uuid.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toBackup(row);
}

/** One page of a server's backups, oldest first, and how many there are. */
export async function pageOfServer(db: Db, serverId: number, page: { page: number; perPage: number }): Promise<{ backups: Backup[]; total: number }> {
  const base = db.selectFrom('backups').where('server_id', '=', serverId).where('deleted_at', 'is', null);
  const rows = await base
    .selectAll()
    .orderBy('id')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  const total = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
  return { backups: rows.map(toBackup), total: Number(total?.count ?? 0) };
}

/** The server's backups that have not failed (the limit's count). */
export async function countNotFailed(db: Db, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('backups')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .where(notFailed)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** When the server's backups that have not failed were started since `since`, deleted ones included, oldest first (the throttle). */
export async function startedSince(db: Db, serverId: number, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('backups')
    .select('created_at')
    .where('server_id', '=', serverId)
    .where('created_at', '>=', since.toISOString())
    .where(notFailed)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => new Date(r.created_at));
}

/** Flips the lock in one statement, so two toggles at once each flip it. */
export async function toggleLock(db: Db, id: number): Promise<Backup> {
  return toBackup(
    await db
      .updateTable('backups')
      .set((eb) => ({ is_locked: eb(eb.val(1), '-', eb.ref('is_locked')) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** Records the end of a running backup of this server; undefined when there was none (ended, deleted, unknown, another server's). */
export async function finish(
  db: Db,
  serverId: number,
  uuid: string,
  result: { successful: boolean; checksum: string | null; bytes: number; now: Date },
): Promise<Backup | undefined> {
  const row = await db
    .updateTable('backups')
    .set({
      is_successful: result.successful ? 1 : 0,
      checksum: result.successful ? result.checksum : null,
      bytes: result.successful ? result.bytes : 0,
      completed_at: result.now.toISOString(),
    })
    .where('uuid', '=', uuid.toLowerCase())
    .where('server_id', '=', serverId)
    .where('completed_at', 'is', null)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row && toBackup(row);
}

/** Marks a backup deleted; false when it already was (a second delete at the same time). */
export async function softDelete(db: Db, id: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('backups')
    .set({ deleted_at: now.toISOString() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A backup by uuid, deleted or not (what a node's report names). */
export async function findByUuid(db: Db, uuid: string): Promise<Backup | undefined> {
  const row = await db.selectFrom('backups').selectAll().where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
  return row && toBackup(row);
}

export async function findById(db: Db, id: number): Promise<Backup | undefined> {
  const row = await db.selectFrom('backups').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toBackup(row);
}

/** The oldest finished backup of a server that is not locked: what a scheduled backup at the limit replaces. */
export async function oldestUnlocked(db: Db, serverId: number): Promise<Backup | undefined> {
  const row = await db
    .selectFrom('backups')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .where('is_locked', '=', 0)
    .where('completed_at', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row && toBackup(row);
}

/** The backups still marked running of the servers on one node (a remote node's, at its `servers/reset`). */
export async function runningOnNode(db: Db, nodeId: number): Promise<Backup[]> {
  const rows = await db
    .selectFrom('backups')
    .innerJoin('servers', 'servers.id', 'backups.server_id')
    .selectAll('backups')
    .where('backups.completed_at', 'is', null)
    .where('backups.deleted_at', 'is', null)
    .where('servers.node_id', '=', nodeId)
    .orderBy('backups.id')
    .execute();
  return rows.map(toBackup);
}
