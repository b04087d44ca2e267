import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authEndpoints, type LoginResponse } from '../../src/contract';
import type { AppDeps } from '../deps';
import type { UserRow } from '../db/schema';
import { badRequest, HttpError, parseWith, tooManyRequests, unauthenticated } from '../http/errors';
import { userAgentOf } from '../http/request-context';
import { randomToken } from '../lib/crypto';
import {
  challengeCookieName,
  clearChallengeCookie,
  clearSessionCookies,
  lifetimesOf,
  secondsUntil,
  setChallengeCookie,
  setSessionCookie,
  setXsrfCookie,
} from '../http/authenticate';
import {
  BAD_CREDENTIALS,
  BAD_RECOVERY,
  BAD_TOTP,
  CHALLENGE_EXPIRED,
  CHALLENGE_TTL_MS,
  accountKey,
  checkPassword,
  createChallenge,
  deleteChallenge,
  findChallenge,
  recordAuthEvent,
  toLoginUser,
  type AuthEventContext,
} from '../services/login';
import { createSession, destroySession } from '../services/sessions';
import { loginThrottles } from '../services/login-throttle';
import { ipBucketKey } from '../lib/ip-bucket';
import { SlidingWindowThrottle } from '../services/throttle';
import { claimTotpStep, consumeRecoveryToken, matchTotpStep, openTotpSecret } from '../services/totp';
import { loadSecretBox } from '../lib/secret-box';
import { findUserByLogin } from '../services/users';

/**
 * Codes one pending challenge may be tried with, from every address together (attacks T-RL-1):
 * the per-address counts alone let a challenge be guessed at from many addresses. A success ends the challenge, so
 * every attempt counts; after that, only signing in with the password again starts a new one.
 */
const CHALLENGE_LIMIT = { max: 10, windowMs: CHALLENGE_TTL_MS };

/**
 * Browser-session routes: CSRF cookie, login with optional TOTP checkpoint, logout.
 * CSRF on logout is enforced by the app's preHandler.
 * Login itself needs no CSRF token: the body must be a JSON object, which a cross-site form cannot send.
 */
export async function authRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config } = deps;
  const box = loadSecretBox(config.dataDir);
  // The same buckets SFTP sign-ins count against.
  const { perIp, perAccountAddress, perAccount } = loginThrottles(deps);
  const perChallenge = new SlidingWindowThrottle(clock, CHALLENGE_LIMIT);

  function guard(throttle: SlidingWindowThrottle, key: string): void {
    const waitMs = throttle.retryAfterMs(key);
    if (waitMs <= 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    throw tooManyRequests(seconds, `Too many login attempts. Please try again in ${seconds} seconds.`);
  }

  /** Counts this attempt against the client address; runs before any parsing or hashing. */
  function throttleAddress(request: FastifyRequest): void {
    const key = `ip:${ipBucketKey(request.ip)}`;
    guard(perIp, key);
    perIp.hit(key);
  }

  /** The lock-out of one account as seen from this request's address: refuses while either count is full. */
  function lockout(request: FastifyRequest, account: string) {
    const here = `${account}|${ipBucketKey(request.ip)}`;
    return {
      check: () => {
        guard(perAccountAddress, here);
        guard(perAccount, account);
      },
      fail: () => {
        perAccountAddress.hit(here);
        perAccount.hit(account);
      },
      // Only this address's count: a success here says nothing about guesses from elsewhere.
      clear: () => perAccountAddress.clear(here),
    };
  }

  function eventContext(request: FastifyRequest): AuthEventContext {
    return { ip: request.ip, userAgent: userAgentOf(request), now: clock.now() };
  }

  /** Signs the browser in; a new session id and CSRF token every time, replacing any prior session. */
  async function completeLogin(request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<LoginResponse> {
    const ctx = eventContext(request);
    if (request.caller?.sessionId) await destroySession(db, request.caller.sessionId);
    const session = await createSession(db, user.id, {
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      lifetimes: lifetimesOf(config),
      now: ctx.now,
    });
    const maxAge = secondsUntil(session.expiresAt, ctx.now);
    setSessionCookie(deps, reply, session.token, maxAge);
    setXsrfCookie(deps, reply, session.csrfToken, maxAge);
    await recordAuthEvent(db, 'auth:success', ctx, user);
    return { data: { complete: true, intended: '/', user: toLoginUser(user) } };
  }

  app.get('/sanctum/csrf-cookie', async (request, reply) => {
    // A signed-in browser gets its session's token back; otherwise a token with nothing behind it,
    // replaced at login, so the SPA can always echo the cookie.
    const token = request.caller?.sessionId && request.caller.csrfToken ? request.caller.csrfToken : randomToken(32);
    setXsrfCookie(deps, reply, token);
    return reply.status(204).send();
  });

  app.post(authEndpoints.login.path, async (request, reply): Promise<LoginResponse> => {
    throttleAddress(request);
    const body = parseWith(authEndpoints.login.body, request.body);
    const found = await findUserByLogin(db, body.user);
    // An unknown login is counted like a known one, so a lock-out does not tell which exist.
    const lock = lockout(request, accountKey(found, body.user));
    lock.check();

    const ctx = eventContext(request);
    // Always one password check, unknown account or not (see checkPassword).
    const ok = await checkPassword(found, body.password);
    if (!found || !ok) {
      lock.fail();
      await recordAuthEvent(db, 'auth:fail', ctx, found, { [body.user.includes('@') ? 'email' : 'username']: body.user });
      throw badRequest(BAD_CREDENTIALS, 'DisplayException');
    }
    lock.clear();

    if (found.use_totp !== 1) return completeLogin(request, reply, found);

    const challenge = await createChallenge(db, found.id, ctx.now, request.cookies[challengeCookieName(deps)]);
    setChallengeCookie(deps, reply, challenge.browserSecret, CHALLENGE_TTL_MS / 1000);
    await recordAuthEvent(db, 'auth:checkpoint', ctx, found);
    return { data: { complete: false, confirmation_token: challenge.token } };
  });

  app.post(authEndpoints.checkpoint.path, async (request, reply): Promise<LoginResponse> => {
    throttleAddress(request);
    const body = parseWith(authEndpoints.checkpoint.body, withoutEmptyStrings(request.body));
    const ctx = eventContext(request);

    const challenge = await findChallenge(db, body.confirmation_token, request.cookies[challengeCookieName(deps)], ctx.now);
    if (!challenge) {
      await recordAuthEvent(db, 'auth:fail', ctx, undefined);
      throw badRequest(CHALLENGE_EXPIRED, 'DisplayException');
    }
    // Checked and counted with nothing awaited in between, so parallel attempts cannot pass it.
    guard(perChallenge, challenge.id);
    perChallenge.hit(challenge.id);
    const { user } = challenge;
    // The same count as the login's: a wrong code is a failed sign-in of this account from here.
    const lock = lockout(request, accountKey(user, user.username));
    lock.check();

    const fail = async (detail: string, field: string): Promise<never> => {
      lock.fail();
      await recordAuthEvent(db, 'auth:fail', ctx, user);
      throw fieldError(detail, field);
    };

    // As the reference panel: when both are sent, the recovery path wins.
    if (body.recovery_token !== undefined) {
      if (!(await consumeRecoveryToken(db, user.id, body.recovery_token))) return fail(BAD_RECOVERY, 'recovery_token');
      await recordAuthEvent(db, 'auth:recovery-token', ctx, user);
    } else {
      const code = body.authentication_code ?? '';
      const secret = openTotpSecret(box, user.totp_secret);
      const step = secret ? matchTotpStep(secret, code, ctx.now, user.totp_last_step) : null;
      if (step === null || !(await claimTotpStep(db, user.id, step))) return fail(BAD_TOTP, 'authentication_code');
      await recordAuthEvent(db, 'auth:token', ctx, user);
    }

    lock.clear();
    // Of two right answers racing for one challenge, only the one that removes it signs in.
    if (!(await deleteChallenge(db, challenge.id))) throw badRequest(CHALLENGE_EXPIRED, 'DisplayException');
    clearChallengeCookie(deps, reply);
    return completeLogin(request, reply, user);
  });

  app.post(authEndpoints.logout.path, async (request, reply) => {
    // Only a browser session can be logged out; a bearer-key caller has none.
    const sessionId = request.caller?.sessionId;
    if (!sessionId) throw unauthenticated();
    await destroySession(db, sessionId);
    clearSessionCookies(deps, reply);
    return reply.status(204).send();
  });
}

/** A 400 the SPA can still show on the form field it is about. */
function fieldError(detail: string, field: string): HttpError {
  return new HttpError(400, 'DisplayException', detail, [{ code: 'DisplayException', status: '400', detail, source: { field } }]);
}

/**
 * Forms often send the unused one of `authentication_code` / `recovery_token` as "". The reference
 * panel treats empty strings as absent, so do the same before validating.
 */
function withoutEmptyStrings(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ''));
}
