import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app';
import type { UserRow } from '../db/schema';
import { csrfMismatch, unauthenticated } from '../http/errors';
import { safeEqual, sha256 } from '../lib/crypto';

/** Who is making a request, resolved once per request by the app's onRequest hook. */
export interface Caller {
  user: UserRow;
  /** Set when authenticated by the browser session cookie (spec §5.2). */
  sessionId: string | null;
  csrfToken: string | null;
  /** Set when authenticated by a bearer API key (spec §5.1). */
  apiKeyId: number | null;
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOUCH_EVERY_MS = 60_000;

/** Resolves the caller from `Authorization: Bearer` or the session cookie; null when neither is valid. */
export async function resolveCaller(deps: AppDeps, request: FastifyRequest): Promise<Caller | null> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S{1,512})$/i.exec(header);
    if (!match?.[1]) return null;
    const key = await db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .select(['api_keys.id as api_key_id', 'api_keys.last_used_at'])
      .where('api_keys.token_hash', '=', sha256(match[1]))
      .executeTakeFirst();
    if (!key) return null;
    const { api_key_id, last_used_at, ...user } = key;
    if (!last_used_at || now.getTime() - new Date(last_used_at).getTime() > TOUCH_EVERY_MS) {
      await db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', api_key_id).execute();
    }
    return { user, sessionId: null, csrfToken: null, apiKeyId: api_key_id };
  }

  const cookie = request.cookies[config.sessionCookie];
  if (!cookie) return null;
  const sessionId = sha256(cookie);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.csrf_token', 'sessions.expires_at', 'sessions.last_active_at'])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return null;
  const { csrf_token, expires_at, last_active_at, ...user } = row;
  if (new Date(expires_at).getTime() <= now.getTime()) {
    await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    return null;
  }
  // Sliding expiry, written at most once a minute so reads stay cheap.
  if (now.getTime() - new Date(last_active_at).getTime() > TOUCH_EVERY_MS) {
    const expires = new Date(now.getTime() + config.sessionLifetimeMinutes * 60_000).toISOString();
    await db.updateTable('sessions').set({ last_active_at: now.toISOString(), expires_at: expires }).where('id', '=', sessionId).execute();
  }
  return { user, sessionId, csrfToken: csrf_token, apiKeyId: null };
}

/**
 * State-changing requests authenticated by the session cookie must echo the XSRF-TOKEN cookie in
 * `X-XSRF-TOKEN` (or `X-CSRF-TOKEN`), else 419. Bearer requests carry no cookie and are exempt.
 */
export function assertCsrf(request: FastifyRequest, caller: Caller | null): void {
  if (SAFE_METHODS.has(request.method) || !caller?.sessionId || !caller.csrfToken) return;
  const raw = request.headers['x-xsrf-token'] ?? request.headers['x-csrf-token'];
  const sent = typeof raw === 'string' ? safeDecode(raw) : '';
  if (!sent || !safeEqual(sent, caller.csrfToken)) throw csrfMismatch();
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The authenticated caller, or a 401. */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthenticated();
  return request.caller;
}

/** Sets the JS-readable XSRF-TOKEN cookie (not HttpOnly by design: the SPA echoes it). */
export function setXsrfCookie(deps: AppDeps, reply: FastifyReply, token: string): void {
  reply.setCookie(XSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    httpOnly: false,
    maxAge: deps.config.sessionLifetimeMinutes * 60,
  });
}

/**
 * The session cookie: HttpOnly so scripts never see it, SameSite=Lax as the reference panel,
 * Secure when configured (T-CSRF-2).
 */
export function setSessionCookie(deps: AppDeps, reply: FastifyReply, token: string): void {
  reply.setCookie(deps.config.sessionCookie, token, {
    path: '/',
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    httpOnly: true,
    maxAge: deps.config.sessionLifetimeMinutes * 60,
  });
}

/** Expires the session and XSRF cookies (logout). */
export function clearSessionCookies(deps: AppDeps, reply: FastifyReply): void {
  const base = { path: '/', sameSite: 'lax', secure: deps.config.secureCookies } as const;
  reply.clearCookie(deps.config.sessionCookie, { ...base, httpOnly: true });
  reply.clearCookie(XSRF_COOKIE, { ...base, httpOnly: false });
}

/** Path of the 2FA challenge cookie: sent only to `/auth/login` and `/auth/login/checkpoint`. */
export const CHALLENGE_COOKIE_PATH = '/auth/login';

export function challengeCookieName(deps: AppDeps): string {
  return `${deps.config.sessionCookie}_challenge`;
}

/** Binds a pending 2FA challenge to this browser; lives exactly as long as the challenge. */
export function setChallengeCookie(deps: AppDeps, reply: FastifyReply, secret: string, maxAgeSeconds: number): void {
  reply.setCookie(challengeCookieName(deps), secret, {
    path: CHALLENGE_COOKIE_PATH,
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    httpOnly: true,
    maxAge: maxAgeSeconds,
  });
}

export function clearChallengeCookie(deps: AppDeps, reply: FastifyReply): void {
  reply.clearCookie(challengeCookieName(deps), { path: CHALLENGE_COOKIE_PATH, sameSite: 'lax', secure: deps.config.secureCookies, httpOnly: true });
}
