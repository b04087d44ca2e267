import type { Db } from '../db';
import { passwordResets, users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { randomToken, sha256 } from '../lib/crypto';
import { endSessionsOf } from './authentication';
import { hashPassword } from './users';

/** A mailed reset token is good for this long (the reference panel's 60 minutes). */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/**
 * A new reset token for the user, replacing any earlier one; only its hash is stored. For an
 * unknown address the same token work is done and nothing is stored, so the caller's timing does
 * not tell which addresses have accounts.
 */
export async function issueResetToken(db: Db, user: UserRow | undefined, now: Date): Promise<string> {
  const token = randomToken(32);
  const hash = sha256(token);
  if (user) await passwordResets.put(db, user.id, hash, now.toISOString());
  return token;
}

/**
 * `/auth/password/reset/<token>?email=<email>`, the reference SPA's route, under `origin`. An
 * invite's link adds `invite=1`, so the page asks to set a first password rather than reset one
 * (the reference SPA ignores it).
 */
export function resetLink(origin: string, token: string, email: string, kind: 'reset' | 'invite' = 'reset'): string {
  const link = `${origin}/auth/password/reset/${encodeURIComponent(token)}?email=${encodeURIComponent(email)}`;
  return kind === 'invite' ? `${link}&invite=1` : link;
}

/**
 * Sets a new password with a mailed token: the token must be the user's latest, unexpired and
 * unspent. Spends it, and signs the user out everywhere. Returns the user, or undefined when the
 * token (or address) is not good, without saying which.
 */
export async function resetPassword(db: Db, email: string, token: string, password: string, now: Date): Promise<UserRow | undefined> {
  const user = await users.findByEmail(db, email);
  if (!user) return undefined;
  const stored = await passwordResets.find(db, user.id);
  const hash = sha256(token);
  if (!stored || stored.token_hash !== hash) return undefined;
  if (Date.parse(stored.created_at) + RESET_TOKEN_TTL_MS <= now.getTime()) {
    await passwordResets.take(db, user.id, hash);
    return undefined;
  }
  // Spent before the (slow) hashing, so two uses at once cannot both set a password.
  if (!(await passwordResets.take(db, user.id, hash))) return undefined;
  await users.setPasswordHash(db, user.id, await hashPassword(password), now);
  await endSessionsOf(db, user.id);
  return user;
}
