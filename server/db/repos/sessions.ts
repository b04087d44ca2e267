import type { Db } from '../index';
import type { SessionRow, UserRow } from '../schema';

/** Browser sessions (stored by the hash of the cookie value) and pending two-factor challenges. */

export async function insert(db: Db, session: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export type SessionWithUser = UserRow & Pick<SessionRow, 'csrf_token' | 'expires_at' | 'last_active_at'> & { session_created_at: string };

export function findWithUser(db: Db, id: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.csrf_token', 'sessions.expires_at', 'sessions.last_active_at', 'sessions.created_at as session_created_at'])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touch(db: Db, id: string, lastActiveAt: string, expiresAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_active_at: lastActiveAt, expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function remove(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export interface ChallengeWithUser extends UserRow {
  challenge_id: string;
  browser_hash: string;
  challenge_expires_at: string;
}

/** Stores a challenge, dropping expired ones and the previous challenge of the same browser. */
export async function insertChallenge(
  db: Db,
  challenge: { id: string; browser_hash: string; user_id: number; expires_at: string; created_at: string },
  now: Date,
  previousBrowserHash?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('login_challenges').where('expires_at', '<=', now.toISOString()).execute();
    if (previousBrowserHash) await trx.deleteFrom('login_challenges').where('browser_hash', '=', previousBrowserHash).execute();
    await trx.insertInto('login_challenges').values(challenge).execute();
  });
}

export function findChallengeWithUser(db: Db, id: string): Promise<ChallengeWithUser | undefined> {
  return db
    .selectFrom('login_challenges')
    .innerJoin('users', 'users.id', 'login_challenges.user_id')
    .selectAll('users')
    .select(['login_challenges.id as challenge_id', 'login_challenges.browser_hash', 'login_challenges.expires_at as challenge_expires_at'])
    .where('login_challenges.id', '=', id)
    .executeTakeFirst();
}

/** Whether this call removed it (false when another request already had). */
export async function removeChallenge(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('login_challenges').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of a user (but `exceptId`, the one making the change) and drops pending 2FA logins; returns how many sessions ended. */
export async function removeForUser(db: Db, userId: number, exceptId?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const result = await query.executeTakeFirst();
    await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
    return Number(result.numDeletedRows);
  });
}
