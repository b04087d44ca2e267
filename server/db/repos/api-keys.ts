import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { ApiKeyType, ApiKeysTable, UserRow } from '../schema';
import * as z from 'zod/mini';
import { parseJsonColumn, stringArray } from './json';

/** API keys (client and application), looked up by the hash of the bearer token. */

export async function insert(db: Db, key: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

/** An application key's grants: resource → 1 read, 2 write, 3 both (the reference's AdminAcl bits). */
export type KeyPermissions = Partial<Record<string, number>>;
const permissionsColumn = z.record(z.string(), z.int().check(z.gte(0), z.lte(3)));

export type KeyWithUser = UserRow & {
  api_key_id: number;
  key_type: ApiKeyType;
  /** What an application key may do; `{}` when the stored grants are unreadable (nothing then). */
  key_permissions: KeyPermissions;
  last_used_at: string | null;
  /** Addresses and CIDR ranges the key may be used from (empty: anywhere); null when the stored list is unreadable. */
  allowed_ips: string[] | null;
};

export async function findWithUser(db: Db, tokenHash: string): Promise<KeyWithUser | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select([
      'api_keys.id as api_key_id',
      'api_keys.key_type',
      'api_keys.permissions as key_permissions',
      'api_keys.last_used_at',
      'api_keys.allowed_ips',
    ])
    .where('api_keys.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      key_permissions: parseJsonColumn(row.key_permissions, permissionsColumn, {}),
      allowed_ips: parseJsonColumn(row.allowed_ips, z.nullable(stringArray), null),
    }
  );
}

export async function touch(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

export interface KeySummary {
  identifier: string;
  key_type: ApiKeyType;
  description: string;
  allowed_ips: string[];
  /** An application key's grants (`{}` for a client key, or when unreadable). */
  permissions: KeyPermissions;
  last_used_at: string | null;
  created_at: string;
}

/** The user's keys of one kind (the account page lists client keys only, as the reference does). */
export async function listForUser(db: Db, userId: number, type: ApiKeyType): Promise<KeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['identifier', 'key_type', 'description', 'allowed_ips', 'permissions', 'last_used_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('key_type', '=', type)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    allowed_ips: parseJsonColumn(r.allowed_ips, stringArray, []),
    permissions: parseJsonColumn(r.permissions, permissionsColumn, {}),
  }));
}

/** Deletes a key by its public identifier (of `owner` and its kind when given); false when there was none. */
export async function removeByIdentifier(db: Db, identifier: string, owner?: { userId: number; type: ApiKeyType }): Promise<boolean> {
  let query = db.deleteFrom('api_keys').where('identifier', '=', identifier);
  if (owner !== undefined) query = query.where('user_id', '=', owner.userId).where('key_type', '=', owner.type);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
