import { describe, expect } from 'vitest';
import { checkpoint, codeAt, CookieJar, login, logout, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';

/** Every test here runs against a panel holding the 2FA account `guarded`, which `startLogin` signs in as. */
const it = test
  .extend('user', async ({ panel }) => panel.user({ username: 'guarded' }))
  .extend('totp', { auto: true }, async ({ panel, user }) => panel.enableTotp(user))
  .extend('secret', async ({ totp }) => totp.secret)
  .extend('recovery', async ({ totp }) => totp.recovery_tokens)
  .extend('challengeCookie', async ({ panel }) => {
    return () => `${panel.config.sessionCookie}_challenge`;
  })
  /** Logs in with the password and returns the pending confirmation token. */
  .extend('startLogin', async ({ panel }) => async (jar: CookieJar): Promise<string> => {
    const res = await login(panel, jar, 'guarded');
    expect(res.statusCode).toBe(200);
    return res.json().data.confirmation_token;
  });

const expired = {
  errors: [
    { code: 'DisplayException', status: '400', detail: 'The authentication token provided has expired, please refresh the page and try again.' },
  ],
};
const badCode = {
  errors: [
    { code: 'DisplayException', status: '400', detail: 'The two-factor authentication token was invalid.', source: { field: 'authentication_code' } },
  ],
};
const badRecovery = {
  errors: [{ code: 'DisplayException', status: '400', detail: 'The recovery token provided is not valid.', source: { field: 'recovery_token' } }],
};

describe('POST /auth/login for a 2FA account', () => {
  it('asks for the second factor without signing in', async ({ panel, challengeCookie }) => {
    const jar = new CookieJar();
    const res = await login(panel, jar, 'guarded');
    expect(res.json()).toEqual({ data: { complete: false, confirmation_token: expect.stringMatching(/^[A-Za-z0-9]{64}$/) } });
    expect(res.cookies.map((c) => c.name)).toEqual([challengeCookie()]);
    expect(res.cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth/login', maxAge: 300 });
    const events = await panel.db.selectFrom('activity_logs').select('event').execute();
    expect(events.map((e) => e.event)).toEqual(['auth:checkpoint']);
  });

  // attacks T-AUTH-3
  it('gives no session before the checkpoint (a login waiting for its code is not signed in)', async ({ panel, startLogin }) => {
    const jar = new CookieJar();
    await startLogin(jar);
    expect((await logout(panel, jar)).statusCode).toBe(401);
  });
});

describe('POST /auth/login/checkpoint with a TOTP code', () => {
  it('completes the login and drops the challenge cookie', async ({ panel, user, secret, challengeCookie, startLogin }) => {
    const jar = new CookieJar();
    const token = await startLogin(jar);
    const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ complete: true, intended: '/', user: { uuid: user.uuid, use_totp: true } });
    expect(res.cookies.find((c) => c.name === panel.config.sessionCookie)).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(res.cookies.find((c) => c.name === challengeCookie())?.value).toBe('');
    expect((await logout(panel, jar)).statusCode).toBe(204);
  });

  // attacks T-AUTH-4
  it('refuses the same code in the next login (a code works once)', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const code = codeAt(panel, secret);
    await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: code });
    await logout(panel, jar);
    const res = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: code });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(badCode);
  });

  it('accepts a code from one step earlier', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const res = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: codeAt(panel, secret, -1) });
    expect(res.statusCode).toBe(200);
  });

  it('accepts a code from one step later', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const res = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: codeAt(panel, secret, 1) });
    expect(res.statusCode).toBe(200);
  });

  // attacks T-AUTH-4
  it('refuses codes two steps away', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const token = await startLogin(jar);
    for (const offset of [-2, 2]) {
      const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret, offset) });
      expect(res.json()).toEqual(badCode);
    }
  });

  // attacks T-AUTH-4
  it('refuses an older step after a newer one was used', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: codeAt(panel, secret) });
    await logout(panel, jar);
    const res = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: codeAt(panel, secret, -1) });
    expect(res.json()).toEqual(badCode);
  });

  it('keeps the challenge after a wrong code so the user can retry', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const token = await startLogin(jar);
    const wrong = codeAt(panel, secret) === '000000' ? '111111' : '000000';
    const first = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: wrong });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual(badCode);
    const second = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    expect(second.statusCode).toBe(200);
  });

  it('records auth:token and auth:success', async ({ panel, user, secret, startLogin }) => {
    const jar = new CookieJar();
    await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), authentication_code: codeAt(panel, secret) });
    const events = await panel.db.selectFrom('activity_logs').select(['event', 'actor_id']).orderBy('id').execute();
    expect(events).toEqual([
      { event: 'auth:checkpoint', actor_id: null },
      { event: 'auth:token', actor_id: null },
      { event: 'auth:success', actor_id: user.id },
    ]);
  });
});

// attacks T-AUTH-4
describe('POST /auth/login/checkpoint with a recovery token', () => {
  it('works once and is refused the second time', async ({ panel, recovery, startLogin }) => {
    const jar = new CookieJar();
    const first = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), recovery_token: recovery[0] ?? '' });
    expect(first.statusCode).toBe(200);
    await logout(panel, jar);
    const second = await checkpoint(panel, jar, { confirmation_token: await startLogin(jar), recovery_token: recovery[0] ?? '' });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual(badRecovery);
  });

  it('uses the recovery path when both fields are sent', async ({ panel, recovery, startLogin }) => {
    const jar = new CookieJar();
    const res = await checkpoint(panel, jar, {
      confirmation_token: await startLogin(jar),
      authentication_code: '000000',
      recovery_token: recovery[1] ?? '',
    });
    expect(res.statusCode).toBe(200);
  });

  it('ignores an empty authentication_code sent next to a recovery token', async ({ panel, recovery, startLogin }) => {
    const jar = new CookieJar();
    const res = await checkpoint(panel, jar, {
      confirmation_token: await startLogin(jar),
      authentication_code: '',
      recovery_token: recovery[2] ?? '',
    });
    expect(res.statusCode).toBe(200);
  });
});

// attacks T-AUTH-3
describe('POST /auth/login/checkpoint token binding (only the browser that logged in can use its token, once, before it expires)', () => {
  it('refuses the token from a browser without the challenge cookie', async ({ panel, secret, startLogin }) => {
    const token = await startLogin(new CookieJar());
    const res = await checkpoint(panel, new CookieJar(), { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expired);
    expect(res.cookies).toEqual([]);
  });

  it('refuses the token in another browser that has its own challenge', async ({ panel, secret, startLogin }) => {
    const token = await startLogin(new CookieJar());
    const other = new CookieJar();
    await startLogin(other);
    const res = await checkpoint(panel, other, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    expect(res.json()).toEqual(expired);
  });

  it('refuses an expired challenge', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const token = await startLogin(jar);
    panel.clock.advance(5 * 60_000 + 1000);
    const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    expect(res.json()).toEqual(expired);
  });

  it('refuses a replay of a completed checkpoint', async ({ panel, secret, startLogin }) => {
    const jar = new CookieJar();
    const token = await startLogin(jar);
    const browser = jar.headers();
    await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
    const replay = await panel.app.inject({
      method: 'POST',
      url: '/auth/login/checkpoint',
      headers: browser,
      payload: { confirmation_token: token, authentication_code: codeAt(panel, secret, 1) },
    });
    expect(replay.json()).toEqual(expired);
  });

  it('refuses tampered tokens', async ({ panel, user, secret, startLogin }) => {
    const jar = new CookieJar();
    await startLogin(jar);
    for (const token of ['0', '1', String(user.id), 'a'.repeat(64)]) {
      const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) });
      expect(res.json()).toEqual(expired);
    }
    for (const token of [['t'], { $ne: '' }, '']) {
      const res = await postJson(panel, '/auth/login/checkpoint', { confirmation_token: token, authentication_code: '123456' }, jar);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0].source).toEqual({ field: 'confirmation_token' });
    }
  });
});

describe('POST /auth/login/checkpoint validation', () => {
  it('names authentication_code when neither factor is sent', async ({ panel }) => {
    const res = await postJson(panel, '/auth/login/checkpoint', { confirmation_token: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field: 'authentication_code' } });
  });

  it('names authentication_code when it is not six digits', async ({ panel }) => {
    const res = await postJson(panel, '/auth/login/checkpoint', { confirmation_token: 'x', authentication_code: '12ab56' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ field: 'authentication_code' });
  });
});
