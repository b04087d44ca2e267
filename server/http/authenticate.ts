import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { safeEqual } from '../lib/crypto';
import { callerFromBearer, callerFromSession, type Caller } from '../services/authentication';
import { csrfMismatch } from './errors';
import './request-context';

/*
 * Request authentication and the browser-session cookies: a bearer API key or the
 * session cookie, CSRF for cookie-authenticated changes, and the cookies the auth routes set.
 */

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Resolves the caller from `Authorization: Bearer` or the session cookie; null when neither is valid. */
export async function resolveCaller(deps: AppDeps, request: FastifyRequest): Promise<Caller | null> {
  const now = deps.clock.now();
  const header = request.headers.authorization;
  if (header !== undefined) return callerFromBearer(deps.db, header, now);
  const cookie = request.cookies[deps.config.sessionCookie];
  return cookie ? callerFromSession(deps.db, cookie, now, deps.config.sessionLifetimeMinutes) : null;
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
 * Secure when configured, so the cookies never travel over plain HTTP.
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
