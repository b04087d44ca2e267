import type { LoginUser } from '../../src/contract';
import type { Db } from '../db';
import { sessions } from '../db/repos';
import type { UserRow } from '../db/schema';
import { randomAlnum, randomToken, sha256 } from '../lib/crypto';
import { isoOffset } from '../lib/time';
import { logActivity } from './activity';
import { dummyPasswordHash, verifyPassword } from './users';

/** Lifetime of a pending two-factor challenge: five minutes, as the reference panel. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export const BAD_CREDENTIALS = 'No account matching those credentials could be found.';
export const CHALLENGE_EXPIRED = 'The authentication token provided has expired, please refresh the page and try again.';
export const BAD_TOTP = 'The two-factor authentication token was invalid.';
export const BAD_RECOVERY = 'The recovery token provided is not valid.';

/** The user object of a completed login. */
export function toLoginUser(user: UserRow): LoginUser {
  return {
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    name_first: user.name_first,
    name_last: user.name_last,
    language: user.language,
    identifier: userIdentifier(user),
    root_admin: user.root_admin === 1,
    use_totp: user.use_totp === 1,
    gravatar: true,
    created_at: isoOffset(user.created_at),
    updated_at: isoOffset(user.updated_at),
  };
}

/**
 * The lock-out key of a login attempt's account: the account itself when the login names one, so
 * its e-mail and its username share one count; else the typed login, lower-cased.
 */
export function accountKey(found: UserRow | undefined, typed: string): string {
  return found ? `user:${found.id}` : `login:${typed.toLowerCase()}`;
}

/**
 * Checks the password of the account a login named, and always runs one argon2 verify (against a
 * dummy hash for unknown accounts), so neither the answer nor its timing tells whether the account
 * exists or has 2FA.
 */
export async function checkPassword(found: UserRow | undefined, password: string): Promise<boolean> {
  const hash = found?.password_hash ?? (await dummyPasswordHash());
  const matches = await verifyPassword(hash, password);
  return found !== undefined && matches;
}

export interface NewChallenge {
  /** Returned to the SPA as `confirmation_token`. */
  token: string;
  /** Goes into the HttpOnly challenge cookie; binds the token to this browser; a token stolen without the cookie is worthless. */
  browserSecret: string;
}

/**
 * Stores a pending 2FA login server-side; only hashes are kept, so a database read does not hand
 * out live tokens. The previous challenge of the same browser and any expired ones are dropped.
 */
export async function createChallenge(db: Db, userId: number, now: Date, previousBrowserSecret?: string): Promise<NewChallenge> {
  const token = randomAlnum(64);
  const browserSecret = randomToken(32);
  await sessions.insertChallenge(
    db,
    {
      id: sha256(token),
      browser_hash: sha256(browserSecret),
      user_id: userId,
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
      created_at: now.toISOString(),
    },
    now,
    previousBrowserSecret ? sha256(previousBrowserSecret) : undefined,
  );
  return { token, browserSecret };
}

export interface LiveChallenge {
  id: string;
  user: UserRow;
}

/**
 * The live challenge for this token in this browser, or null. Looking the token up by its hash
 * is the constant-time comparison: nothing is compared byte by byte against a secret.
 */
export async function findChallenge(db: Db, token: string, browserSecret: string | undefined, now: Date): Promise<LiveChallenge | null> {
  if (!browserSecret) return null;
  const row = await sessions.findChallengeWithUser(db, sha256(token));
  if (!row) return null;
  const { challenge_id, browser_hash, challenge_expires_at, ...user } = row;
  if (new Date(challenge_expires_at).getTime() <= now.getTime()) {
    await deleteChallenge(db, challenge_id);
    return null;
  }
  if (browser_hash !== sha256(browserSecret)) return null;
  return { id: challenge_id, user };
}

/** Deletes a challenge; true only for the one call that did, so a challenge completes once. */
export function deleteChallenge(db: Db, id: string): Promise<boolean> {
  return sessions.removeChallenge(db, id);
}

export interface AuthEventContext {
  ip: string;
  userAgent: string;
  now: Date;
}

/**
 * Writes an `auth:*` activity entry: the user is the subject when known;
 * only `auth:success` has an actor, because only then is the user really signed in.
 */
export async function recordAuthEvent(
  db: Db,
  event: 'auth:success' | 'auth:fail' | 'auth:checkpoint' | 'auth:token' | 'auth:recovery-token' | 'auth:password-reset',
  ctx: AuthEventContext,
  user: UserRow | undefined,
  extra: Record<string, string> = {},
): Promise<void> {
  await logActivity(db, {
    event,
    ip: ctx.ip,
    actorId: event === 'auth:success' && user ? user.id : null,
    properties: { ip: ctx.ip, useragent: ctx.userAgent, ...extra },
    subjects: user ? [{ type: 'user', id: user.id }] : [],
    timestamp: ctx.now,
  });
}

/** A user's short identifier, as the account and subuser resources show it: their uuid's first 8 characters. */
export function userIdentifier(user: { uuid: string }): string {
  return user.uuid.slice(0, 8);
}
