import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { ApiKeysTable, UserRow } from '../schema';
import * as z from 'zod/mini';
import { parseJsonColumn, stringArray } from './json';

/** Client API keys, looked up by the hash of the bearer token. */

export async function insert(db: Db, key: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export type KeyWithUser = UserRow & {
  api_key_id: number;
  last_used_at: string | null;
  /** Addresses and CIDR ranges the key may be used from (empty: anywhere); null when the stored list is unreadable. */
  allowed_ips: string[] | null;
};

export async function findWithUser(db: Db, tokenHash: string): Promise<KeyWithUser | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select(['api_keys.id as api_key_id', 'api_keys.last_used_at', 'api_keys.allowed_ips'])
    .where('api_keys.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { ...row, allowed_ips: parseJsonColumn(row.allowed_ips, z.nullable(stringArray), null) };
}

export async function touch(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

export interface KeySummary {
  identifier: string;
  description: string;
  allowed_ips: string[];
  last_used_at: string | null;
  created_at: string;
}

export async function listForUser(db: Db, userId: number): Promise<KeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['identifier', 'description', 'allowed_ips', 'last_used_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, allowed_ips: parseJsonColumn(r.allowed_ips, stringArray, []) }));
}

/** Deletes a key by its public identifier (of `userId` when given); false when there was none. */
export async function removeByIdentifier(db: Db, identifier: string, userId?: number): Promise<boolean> {
  let query = db.deleteFrom('api_keys').where('identifier', '=', identifier);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
