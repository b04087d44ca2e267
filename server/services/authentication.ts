import type { Db } from '../db';
import { apiKeys, sessions } from '../db/repos';
import type { ApiKeyType, UserRow } from '../db/schema';
import { sha256 } from '../lib/crypto';
import { ipAllowed } from './api-keys';

/** Who is making a request, resolved once per request. */
export interface Caller {
  user: UserRow;
  /** Set when authenticated by the browser session cookie. */
  sessionId: string | null;
  csrfToken: string | null;
  /** Set when authenticated by a bearer API key (`Authorization: Bearer ptlc_…` or `ptla_…`). */
  apiKeyId: number | null;
  /** An application key's grants per resource (1 read, 2 write, 3 both); null for any other caller. */
  applicationGrants?: apiKeys.KeyPermissions | null;
}

const TOUCH_EVERY_MS = 60_000;

/**
 * The token of an `Authorization: Bearer` header ('' when it is malformed), or null when there is
 * no header or it uses another scheme (HTTP Basic from a proxy).
 */
export function bearerToken(header: string | undefined): string | null {
  const match = header === undefined ? null : /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) return null;
  const token = match[1] ?? '';
  return /^\S{1,512}$/.test(token) ? token : '';
}

export type BearerResult = { caller: Caller } | { refused: 'ip' } | null;

/**
 * The caller behind a bearer token used from `ip`; null when it is not a live key of `type` (a
 * client key opens nothing of the application API, nor an application key the client API),
 * `refused` when the key may not be used from there.
 */
export async function callerFromBearer(db: Db, token: string, now: Date, ip: string, type: ApiKeyType = 'account'): Promise<BearerResult> {
  if (token === '') return null;
  const key = await apiKeys.findWithUser(db, sha256(token));
  if (key?.key_type !== type) return null;
  const { api_key_id, last_used_at, allowed_ips, key_type, key_permissions, ...user } = key;
  if (!ipAllowed(allowed_ips, ip)) return { refused: 'ip' };
  if (!last_used_at || now.getTime() - new Date(last_used_at).getTime() > TOUCH_EVERY_MS) {
    await apiKeys.touch(db, api_key_id, now.toISOString());
  }
  const applicationGrants = key_type === 'application' ? key_permissions : null;
  return { caller: { user, sessionId: null, csrfToken: null, apiKeyId: api_key_id, applicationGrants } };
}

export interface SessionLifetimes {
  /** Minutes of inactivity after which a session ends. */
  slidingMinutes: number;
  /** Minutes after sign-in after which a session ends however active it was. */
  absoluteMinutes: number;
}

/** When a session used at `now` ends: the sliding expiry, never past the absolute one. */
export function sessionExpiry(createdAt: Date, now: Date, lifetimes: SessionLifetimes): Date {
  return new Date(Math.min(now.getTime() + lifetimes.slidingMinutes * 60_000, createdAt.getTime() + lifetimes.absoluteMinutes * 60_000));
}

export interface SessionCaller {
  caller: Caller;
  /** Set when this request moved the session's expiry: the cookie should be re-issued to match. */
  slidTo: Date | null;
}

/** The caller behind a session cookie value, or null when the session is unknown or expired. */
export async function callerFromSession(db: Db, cookie: string, now: Date, lifetimes: SessionLifetimes): Promise<SessionCaller | null> {
  const sessionId = sha256(cookie);
  const row = await sessions.findWithUser(db, sessionId);
  if (!row) return null;
  const { csrf_token, expires_at, last_active_at, session_created_at, ...user } = row;
  const createdAt = new Date(session_created_at);
  const absoluteEnd = createdAt.getTime() + lifetimes.absoluteMinutes * 60_000;
  if (new Date(expires_at).getTime() <= now.getTime() || absoluteEnd <= now.getTime()) {
    await sessions.remove(db, sessionId);
    return null;
  }
  const caller = { user, sessionId, csrfToken: csrf_token, apiKeyId: null };
  // Sliding expiry, written at most once a minute so reads stay cheap.
  if (now.getTime() - new Date(last_active_at).getTime() <= TOUCH_EVERY_MS) return { caller, slidTo: null };
  const slidTo = sessionExpiry(createdAt, now, lifetimes);
  await sessions.touch(db, sessionId, now.toISOString(), slidTo.toISOString());
  return { caller, slidTo };
}

/** Signs a user out everywhere but `exceptSessionId` (after a password change or turning 2FA on); returns how many sessions ended. */
export function endSessionsOf(db: Db, userId: number, exceptSessionId?: string): Promise<number> {
  return sessions.removeForUser(db, userId, exceptSessionId);
}
