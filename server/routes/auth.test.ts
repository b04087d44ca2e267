import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { loginResponseSchema } from '../../src/contract';
import { badCredentialsBody, CookieJar, login, logout, PASSWORD, postJson } from '../test/auth-support';
import { loadConfig } from '../config';
import { it } from '../test/fixtures';

const cookieNamed = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);

describe('GET /sanctum/csrf-cookie', () => {
  it('answers 204 with a script-readable XSRF-TOKEN cookie and no session cookie', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const xsrf = cookieNamed(res, 'XSRF-TOKEN');
    expect(xsrf).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(xsrf?.httpOnly).not.toBe(true);
    expect(xsrf?.value.length).toBeGreaterThanOrEqual(32);
    expect(cookieNamed(res, panel.config.sessionCookie)).toBeUndefined();
  });

  it("gives a signed-in browser its session's CSRF token", async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const res = await panel.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers });
    expect(res.statusCode).toBe(204);
    expect(cookieNamed(res, 'XSRF-TOKEN')?.value).toBe(headers['x-xsrf-token']);
  });
});

describe('POST /auth/login without 2FA', () => {
  it("completes the login with the signed-in user's account fields", async ({ panel }) => {
    const user = await panel.user({ username: 'alice', email: 'alice@example.com' });
    const res = await login(panel, new CookieJar(), 'alice');
    expect(res.statusCode).toBe(200);
    expect(loginResponseSchema.safeParse(res.json()).success).toBe(true);
    expect(res.json()).toEqual({
      data: {
        complete: true,
        intended: '/',
        user: {
          uuid: user.uuid,
          username: 'alice',
          email: 'alice@example.com',
          name_first: 'Test',
          name_last: user.name_last,
          language: 'en',
          identifier: user.uuid.slice(0, 8),
          root_admin: false,
          use_totp: false,
          gravatar: true,
          created_at: '2026-03-01T12:00:00+00:00',
          updated_at: '2026-03-01T12:00:00+00:00',
        },
      },
    });
  });

  // attacks T-CSRF-2
  it('sets an HttpOnly SameSite=Lax session cookie and a fresh XSRF-TOKEN', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    jar.store(await panel.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' }));
    const before = jar.get('XSRF-TOKEN');
    const res = await login(panel, jar, 'alice');
    expect(cookieNamed(res, panel.config.sessionCookie)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 720 * 60 });
    expect(cookieNamed(res, 'XSRF-TOKEN')?.httpOnly).not.toBe(true);
    expect(jar.get('XSRF-TOKEN')).not.toBe(before);
  });

  // attacks T-CSRF-2
  it('marks the session cookie Secure and __Host- when configured; the 2FA challenge cookie __Secure-', async ({ makePanel }) => {
    const fromEnv = loadConfig({ SESSION_SECURE_COOKIE: 'true' });
    expect(fromEnv.sessionCookie).toBe('__Host-aerie_session');
    expect(loadConfig({ SESSION_SECURE_COOKIE: 'true', SESSION_COOKIE: 'mine' }).sessionCookie).toBe('mine');
    expect(loadConfig({}).sessionCookie).toBe('aerie_session');

    const secure = await makePanel({ secureCookies: true, sessionCookie: fromEnv.sessionCookie });
    await secure.user({ username: 'alice' });
    const jar = new CookieJar();
    const res = await login(secure, jar, 'alice');
    // What a browser asks of a __Host- cookie: Secure, Path=/ and no Domain.
    expect(cookieNamed(res, '__Host-aerie_session')).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(cookieNamed(res, '__Host-aerie_session')?.domain).toBeUndefined();
    expect((await secure.app.inject({ url: '/api/client/account', headers: jar.headers() })).statusCode).toBe(200);

    const bob = await secure.user({ username: 'bob' });
    await secure.enableTotp(bob);
    const challenge = await login(secure, new CookieJar(), 'bob');
    expect(cookieNamed(challenge, '__Secure-aerie_session_challenge')).toMatchObject({ secure: true, path: '/auth/login' });
  });

  it('gives a session that authenticates later requests', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: jar.headers() });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.username).toBe('alice');
  });

  it('accepts the email address in any case', async ({ panel }) => {
    await panel.user({ email: 'Alice@Example.com' });
    const res = await login(panel, new CookieJar(), 'alice@example.com');
    expect(res.statusCode).toBe(200);
  });

  // attacks T-SESS-1
  it('replaces and destroys a session the browser already had (fixation)', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const old = await panel.sessionHeaders(user);
    const res = await panel.app.inject({ method: 'POST', url: '/auth/login', headers: old, payload: { user: 'alice', password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(old.cookie).not.toContain(cookieNamed(res, panel.config.sessionCookie)?.value);
    const replay = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: old });
    expect(replay.statusCode).toBe(401);
  });
});

describe('POST /auth/login failures', () => {
  // attacks T-AUTH-1
  it('answers unknown user, wrong password and wrong 2FA password identically (no account enumeration)', async ({ panel }) => {
    await panel.user({ username: 'plain' });
    const twoFactor = await panel.user({ username: 'guarded' });
    await panel.enableTotp(twoFactor);
    const results = await Promise.all(
      ['nobody', 'plain', 'guarded'].map((name, i) =>
        postJson(panel, '/auth/login', { user: name, password: 'wrong password' }, undefined, `10.0.0.${i + 1}`),
      ),
    );
    for (const res of results) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(badCredentialsBody);
      expect(res.cookies).toEqual([]);
    }
  });

  it('names the missing field with 422', async ({ panel }) => {
    const res = await postJson(panel, '/auth/login', { user: 'alice' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', status: '422', source: { field: 'password' } });
  });

  // attacks T-CSRF-1
  it('refuses a form-encoded body, which a cross-site form could send', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const res = await panel.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `user=alice&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(res.statusCode).toBe(415);
    expect(res.cookies).toEqual([]);
  });

  it('records auth:fail with the typed login and the found user as subject', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    await postJson(panel, '/auth/login', { user: 'alice', password: 'nope' }, undefined, '10.1.1.1');
    const row = await panel.db.selectFrom('activity_logs').selectAll().where('event', '=', 'auth:fail').executeTakeFirstOrThrow();
    expect(row.actor_id).toBeNull();
    expect(JSON.parse(row.properties)).toEqual({ ip: '10.1.1.1', useragent: 'lightMyRequest', username: 'alice' });
    const subjects = await panel.db.selectFrom('activity_subjects').selectAll().where('activity_log_id', '=', row.id).execute();
    expect(subjects).toEqual([{ activity_log_id: row.id, subject_type: 'user', subject_id: user.id }]);
  });

  it('records auth:success with the user as actor', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    await login(panel, new CookieJar(), 'alice');
    const row = await panel.db.selectFrom('activity_logs').selectAll().where('event', '=', 'auth:success').executeTakeFirstOrThrow();
    expect(row.actor_id).toBe(user.id);
    expect(JSON.parse(row.properties)).toEqual({ ip: '127.0.0.1', useragent: 'lightMyRequest' });
  });
});

describe('POST /auth/logout', () => {
  it('ends the session, expires both cookies and answers 204 with no body', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    const res = await logout(panel, jar);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const names = res.cookies.filter((c) => c.value === '').map((c) => c.name);
    expect(names.sort()).toEqual([panel.config.sessionCookie, 'XSRF-TOKEN'].sort());
  });

  // attacks T-SESS-2
  it('makes the old cookie worthless (a cookie replayed after logout gets 401)', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    const copied = jar.headers();
    await logout(panel, jar);
    const replay = await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: copied });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ errors: [{ code: 'AuthenticationException', status: '401', detail: 'Unauthenticated.' }] });
  });

  // attacks T-CSRF-1
  it('answers 419 without the CSRF header and keeps the session', async ({ panel }) => {
    const user = await panel.user();
    const { cookie, 'x-xsrf-token': xsrf } = await panel.sessionHeaders(user);
    const res = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({ errors: [{ code: 'HttpException', status: '419', detail: 'CSRF token mismatch.' }] });
    const after = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, 'x-xsrf-token': xsrf ?? '' } });
    expect(after.statusCode).toBe(204);
  });

  // attacks T-CSRF-1
  it('answers 419 with a wrong CSRF header', async ({ panel }) => {
    const user = await panel.user();
    const { cookie } = await panel.sessionHeaders(user);
    const res = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, 'x-xsrf-token': 'forged' } });
    expect(res.statusCode).toBe(419);
  });

  it('answers 401 without a session', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'POST', url: '/auth/logout' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AuthenticationException');
  });

  // attacks T-SESS-3, T-CSRF-2
  it('answers 401 to a bearer key and sets no cookie (a key never becomes a session)', async ({ panel }) => {
    const user = await panel.user();
    const res = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: await panel.bearerHeaders(user) });
    expect(res.statusCode).toBe(401);
    expect(res.cookies).toEqual([]);
  });

  // attacks T-CSRF-1
  it('is not reachable with GET (a link cannot sign a user out)', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const res = await panel.app.inject({ method: 'GET', url: '/auth/logout', headers });
    expect(res.statusCode).toBe(404);
    const still = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers });
    expect(still.statusCode).toBe(204);
  });
});
