import * as z from 'zod/mini';
import { isPermission, type Permission } from '../../../src/contract';
import type { Db } from '../index';
import type { SubuserRow } from '../schema';
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
