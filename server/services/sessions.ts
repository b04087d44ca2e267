import type { Db } from '../db';
import { sessions } from '../db/repos';
import { randomToken, sha256 } from '../lib/crypto';
import { sessionExpiry, type SessionLifetimes } from './authentication';

export interface NewSession {
  /** The cookie value; only its hash is stored. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function createSession(
  db: Db,
  userId: number,
  meta: { ip: string; userAgent: string; lifetimes: SessionLifetimes; now: Date },
): Promise<NewSession> {
  const token = randomToken(32);
  const csrfToken = randomToken(32);
  const ts = meta.now.toISOString();
  const expiresAt = sessionExpiry(meta.now, meta.now, meta.lifetimes);
  await sessions.insert(db, {
    id: sha256(token),
    user_id: userId,
    csrf_token: csrfToken,
    ip: meta.ip,
    user_agent: meta.userAgent.slice(0, 512),
    created_at: ts,
    last_active_at: ts,
    expires_at: expiresAt.toISOString(),
  });
  return { token, csrfToken, expiresAt };
}

export async function destroySession(db: Db, sessionId: string): Promise<void> {
  await sessions.remove(db, sessionId);
}
