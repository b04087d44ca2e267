import * as z from 'zod/mini';
import { isPermission, type Permission } from '../../../src/contract';
import type { Db } from '../index';
import type { SubuserRow, UserRow } from '../schema';
import { parseJsonColumn } from './json';

/** A subuser with its permissions read: only known strings survive, so nothing downstream casts. */
export type Subuser = Omit<SubuserRow, 'permissions'> & { permissions: Permission[] };

const permissionList = z.pipe(
  z.array(z.string()),
  z.transform((list) => list.filter(isPermission)),
);

export function parsePermissions(text: string): Permission[] {
  return parseJsonColumn(text, permissionList, []);
}

function toSubuser(row: SubuserRow): Subuser {
  return { ...row, permissions: parsePermissions(row.permissions) };
}

export async function find(db: Db, serverId: number, userId: number): Promise<Subuser | undefined> {
  const row = await db.selectFrom('subusers').selectAll().where('server_id', '=', serverId).where('user_id', '=', userId).executeTakeFirst();
  return row && toSubuser(row);
}

/** The caller's permissions on each of these servers where they are a subuser. */
export async function permissionsOn(db: Db, userId: number, serverIds: readonly number[]): Promise<Map<number, Permission[]>> {
  if (serverIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('subusers')
    .select(['server_id', 'permissions'])
    .where('user_id', '=', userId)
    .where('server_id', 'in', serverIds)
    .execute();
  return new Map(rows.map((r) => [r.server_id, parsePermissions(r.permissions)]));
}

export async function insert(db: Db, values: { user_id: number; server_id: number; permissions: Permission[]; now: Date }): Promise<Subuser> {
  const ts = values.now.toISOString();
  const row = await db
    .insertInto('subusers')
    .values({ user_id: values.user_id, server_id: values.server_id, permissions: JSON.stringify(values.permissions), created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSubuser(row);
}

/** Every subuser of a server with their account, oldest first. */
export async function ofServer(db: Db, serverId: number): Promise<(Subuser & { user: UserRow })[]> {
  const rows = await db.selectFrom('subusers').selectAll().where('server_id', '=', serverId).orderBy('id').execute();
  if (rows.length === 0) return [];
  const accounts = await db
    .selectFrom('users')
    .selectAll()
    .where(
      'id',
      'in',
      rows.map((r) => r.user_id),
    )
    .execute();
  const byId = new Map(accounts.map((u) => [u.id, u]));
  return rows.flatMap((r) => {
    const user = byId.get(r.user_id);
    return user ? [{ ...toSubuser(r), user }] : [];
  });
}

/** The subuser of this server whose account has this uuid. */
export async function findByUserUuid(db: Db, serverId: number, userUuid: string): Promise<(Subuser & { user: UserRow }) | undefined> {
  const user = await db.selectFrom('users').selectAll().where('uuid', '=', userUuid).executeTakeFirst();
  if (!user) return undefined;
  const sub = await find(db, serverId, user.id);
  return sub && { ...sub, user };
}

/** Undefined when the row is gone (removed meanwhile). */
export async function setPermissions(db: Db, id: number, permissions: Permission[], now: Date): Promise<Subuser | undefined> {
  const row = await db
    .updateTable('subusers')
    .set({ permissions: JSON.stringify(permissions), updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && toSubuser(row);
}

/** Whether there was such a row to remove. */
export async function remove(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('subusers').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The servers a user is a subuser of. */
export function serversOf(db: Db, userId: number): Promise<{ id: number; uuid_short: string }[]> {
  return db
    .selectFrom('subusers')
    .innerJoin('servers', 'servers.id', 'subusers.server_id')
    .select(['servers.id', 'servers.uuid_short'])
    .where('subusers.user_id', '=', userId)
    .orderBy('servers.id')
    .execute();
}
