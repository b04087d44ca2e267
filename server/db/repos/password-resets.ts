import type { Db } from '../index';

/** Password-reset tokens by mail: at most one per user, stored by its hash. */

/** Stores the user's token, replacing any earlier one. */
export async function put(db: Db, userId: number, tokenHash: string, createdAt: string): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: tokenHash, created_at: createdAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: createdAt }))
    .execute();
}

export function find(db: Db, userId: number): Promise<{ token_hash: string; created_at: string } | undefined> {
  return db.selectFrom('password_resets').select(['token_hash', 'created_at']).where('user_id', '=', userId).executeTakeFirst();
}

/** Spends the token: true only for the one caller that removed it (two uses at once cannot both win). */
export async function take(db: Db, userId: number, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('password_resets').where('user_id', '=', userId).where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
