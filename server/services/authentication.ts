import type { Db } from '../db';
import { apiKeys, sessions } from '../db/repos';
import type { UserRow } from '../db/schema';
import { sha256 } from '../lib/crypto';

/** Who is making a request, resolved once per request. */
export interface Caller {
  user: UserRow;
  /** Set when authenticated by the browser session cookie. */
  sessionId: string | null;
  csrfToken: string | null;
  /** Set when authenticated by a bearer API key (`Authorization: Bearer ptlc_…`). */
  apiKeyId: number | null;
}

const TOUCH_EVERY_MS = 60_000;

/** The caller behind an `Authorization` header value, or null when it is not a live API key. */
export async function callerFromBearer(db: Db, header: string, now: Date): Promise<Caller | null> {
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header);
  if (!match?.[1]) return null;
  const key = await apiKeys.findWithUser(db, sha256(match[1]));
  if (!key) return null;
  const { api_key_id, last_used_at, ...user } = key;
  if (!last_used_at || now.getTime() - new Date(last_used_at).getTime() > TOUCH_EVERY_MS) {
    await apiKeys.touch(db, api_key_id, now.toISOString());
  }
  return { user, sessionId: null, csrfToken: null, apiKeyId: api_key_id };
}

/** The caller behind a session cookie value, or null when the session is unknown or expired. */
export async function callerFromSession(db: Db, cookie: string, now: Date, lifetimeMinutes: number): Promise<Caller | null> {
  const sessionId = sha256(cookie);
  const row = await sessions.findWithUser(db, sessionId);
  if (!row) return null;
  const { csrf_token, expires_at, last_active_at, ...user } = row;
  if (new Date(expires_at).getTime() <= now.getTime()) {
    await sessions.remove(db, sessionId);
    return null;
  }
  // Sliding expiry, written at most once a minute so reads stay cheap.
  if (now.getTime() - new Date(last_active_at).getTime() > TOUCH_EVERY_MS) {
    await sessions.touch(db, sessionId, now.toISOString(), new Date(now.getTime() + lifetimeMinutes * 60_000).toISOString());
  }
  return { user, sessionId, csrfToken: csrf_token, apiKeyId: null };
}
