import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import type { ApiKeyType } from '../db/schema';
import { safeEqual } from '../lib/crypto';
import { bearerToken, callerFromBearer, callerFromSession, type Caller, type SessionLifetimes } from '../services/authentication';
import { csrfMismatch, forbidden } from './errors';
import './request-context';

/*
 * Request authentication and the browser-session cookies: a bearer API key or the
 * session cookie, CSRF for cookie-authenticated changes, and the cookies the auth routes set.
 */

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where the client API and the browser-session routes live: these get a caller and CSRF checks. */
export const API_PREFIXES = ['/api/', '/auth/', '/sanctum/'];

export function lifetimesOf(config: Config): SessionLifetimes {
  return { slidingMinutes: config.sessionLifetimeMinutes, absoluteMinutes: config.sessionAbsoluteLifetimeMinutes };
}

/**
 * Resolves the caller and checks CSRF before every handler of the route group it is registered in
 * (the client API's with client keys, the application API's with application keys; a browser
 * session in either). What is an API request is decided by the route it matched, never by its raw
 * URL: `/%61uth/login` routes to the login handler, and meets the same session and CSRF checks as
 * `/auth/login`.
 */
export function registerAuthentication(app: FastifyInstance, deps: AppDeps, keyType: ApiKeyType = 'account'): void {
  app.addHook('preHandler', async (request, reply) => {
    request.caller = await resolveCaller(deps, request, reply, keyType);
    assertCsrf(request, request.caller);
  });
}

/**
 * Resolves the caller from `Authorization: Bearer` or the session cookie; null when neither is
 * valid. Any other Authorization scheme (HTTP Basic added by a reverse proxy) is not ours, so the
 * session cookie decides. A session whose expiry slid gets its cookies re-issued to match.
 */
export async function resolveCaller(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  keyType: ApiKeyType = 'account',
): Promise<Caller | null> {
  const now = deps.clock.now();
  const token = bearerToken(request.headers.authorization);
  if (token !== null) {
    const result = await callerFromBearer(deps.db, token, now, request.ip, keyType);
    if (result && 'refused' in result) {
      throw forbidden(`This IP address (${request.ip}) does not have permission to access the API using these credentials.`);
    }
    return result?.caller ?? null;
  }
  const cookie = request.cookies[deps.config.sessionCookie];
  if (!cookie) return null;
  const found = await callerFromSession(deps.db, cookie, now, lifetimesOf(deps.config));
  if (!found) return null;
  if (found.slidTo && found.caller.csrfToken) {
    const maxAge = secondsUntil(found.slidTo, now);
    setSessionCookie(deps, reply, cookie, maxAge);
    setXsrfCookie(deps, reply, found.caller.csrfToken, maxAge);
  }
  return found.caller;
}

export function secondsUntil(at: Date, now: Date): number {
  return Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
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

/** Sets the JS-readable XSRF-TOKEN cookie (not HttpOnly by design: the SPA echoes it). */
export function setXsrfCookie(deps: AppDeps, reply: FastifyReply, token: string, maxAgeSeconds = deps.config.sessionLifetimeMinutes * 60): void {
  reply.setCookie(XSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    httpOnly: false,
    maxAge: maxAgeSeconds,
  });
}

/**
 * The session cookie: HttpOnly so scripts never see it, SameSite=Lax as the reference panel,
 * Secure when configured, so the cookies never travel over plain HTTP.
 */
export function setSessionCookie(deps: AppDeps, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.setCookie(deps.config.sessionCookie, token, {
    path: '/',
    sameSite: 'lax',
    secure: deps.config.secureCookies,
    httpOnly: true,
    maxAge: maxAgeSeconds,
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

/** `<session cookie>_challenge`; a `__Host-` name becomes `__Secure-`, as `__Host-` needs Path `/`. */
export function challengeCookieName(deps: AppDeps): string {
  return `${deps.config.sessionCookie.replace(/^__Host-/, '__Secure-')}_challenge`;
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
