import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { ApiKeysTable, UserRow } from '../schema';

/** Client API keys, looked up by the hash of the bearer token. */

export async function insert(db: Db, key: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export type KeyWithUser = UserRow & { api_key_id: number; last_used_at: string | null };

export function findWithUser(db: Db, tokenHash: string): Promise<KeyWithUser | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select(['api_keys.id as api_key_id', 'api_keys.last_used_at'])
    .where('api_keys.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touch(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
