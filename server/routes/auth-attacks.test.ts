import { describe, expect } from 'vitest';
import { checkpoint, codeAt, CookieJar, login, PASSWORD, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { resetLinkIn, startMailCapture } from '../test/mail-capture';

/*
 * Red-team pass on sign-in, two-factor, sessions, CSRF, API keys and the account (issue 12): the
 * attacks of the catalogue's rows T-AUTH-*, T-RL-*, T-ENUM-1, T-CSRF-*, T-SESS-*, T-LFI-1 that no
 * other test covers, and a few beyond it. Each test names the row it attacks.
 */

const NEW_PASSWORD = 'a brand new password';

const it = test
  // A real SMTP server, and a panel mailing to it with no APP_URL set.
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('smtp', async ({}, { onCleanup }) => {
    const capture = await startMailCapture();
    onCleanup(() => capture.close());
    return capture;
  })
  .extend('mailPanel', async ({ makePanel, smtp }) => makePanel({ smtpUrl: smtp.url }));

function account(panel: TestPanel, headers: Record<string, string>, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) {
  return panel.app.inject({ method, url: `/api/client/account${url}`, headers, ...(payload ? { payload } : {}) });
}

const changeEmail = (panel: TestPanel, headers: Record<string, string>, email: string, password = PASSWORD) =>
  account(panel, headers, 'PUT', '/email', { email, password });

const emailOf = async (panel: TestPanel, id: number) =>
  (await panel.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

describe('e-mail changes (attacks T-ENUM-1)', () => {
  it('allows three a day; the fourth answers 429 with Retry-After and changes nothing; wrong passwords do not count', async ({ panel }) => {
    const user = await panel.user({ email: 'ann@example.com' });
    const headers = await panel.sessionHeaders(user);
    for (let i = 0; i < 4; i += 1) expect((await changeEmail(panel, headers, `wrong${i}@example.com`, 'not the password')).statusCode).toBe(400);
    for (let i = 1; i <= 3; i += 1) expect((await changeEmail(panel, headers, `ann${i}@example.com`)).statusCode).toBe(204);
    const fourth = await changeEmail(panel, headers, 'ann4@example.com');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ errors: [{ code: 'ThrottleRequestsException', status: '429', detail: 'Too Many Attempts.' }] });
    expect(Number(fourth.headers['retry-after'])).toBe(24 * 3600);
    expect(await emailOf(panel, user.id)).toBe('ann3@example.com');
    // The window slides: a day after the first change, one more is allowed.
    panel.clock.advance(24 * 3600_000);
    expect((await changeEmail(panel, await panel.sessionHeaders(user), 'ann4@example.com')).statusCode).toBe(204);
  });

  it('counts an address found taken, so the "taken" answer cannot look addresses up in bulk', async ({ panel }) => {
    const user = await panel.user({ email: 'ann@example.com' });
    await panel.user({ email: 'bob@example.com' });
    const headers = await panel.sessionHeaders(user);
    for (const probe of ['bob@example.com', 'carol@example.com', 'dave@example.com']) {
      const res = await changeEmail(panel, headers, probe);
      expect(res.statusCode).toBe(probe === 'bob@example.com' ? 422 : 204);
    }
    // Taken or not, the fourth lookup gets the same 429.
    for (const probe of ['bob@example.com', 'erin@example.com']) expect((await changeEmail(panel, headers, probe)).statusCode).toBe(429);
  });

  it('lets no more than three of many parallel changes through', async ({ panel }) => {
    const user = await panel.user({ email: 'ann@example.com' });
    const headers = await panel.sessionHeaders(user);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => changeEmail(panel, headers, `par${i}@example.com`)));
    expect(results.filter((r) => r.statusCode === 204)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(5);
  });

  it('says nothing about the address when the password is wrong, and takes no address in another case', async ({ panel }) => {
    const user = await panel.user({ email: 'ann@example.com' });
    await panel.user({ email: 'bob@example.com' });
    const headers = await panel.sessionHeaders(user);
    const taken = await changeEmail(panel, headers, 'bob@example.com', 'not the password');
    const free = await changeEmail(panel, headers, 'nobody@example.com', 'not the password');
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual(free.json());
    expect((await changeEmail(panel, headers, 'BOB@EXAMPLE.COM')).statusCode).toBe(422);
    // The same address is no change; the own address in another case is the user's to make.
    expect((await changeEmail(panel, headers, 'ann@example.com')).statusCode).toBe(204);
    expect((await changeEmail(panel, headers, 'Ann@Example.com')).statusCode).toBe(204);
    expect(await emailOf(panel, user.id)).toBe('Ann@Example.com');
    expect((await login(panel, new CookieJar(), 'ann@example.com')).statusCode).toBe(200);
  });
});

const reset = (panel: TestPanel, body: Record<string, string>, ip = '127.0.0.1') =>
  postJson(panel, '/auth/password/reset', { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD, ...body }, undefined, ip);

describe('password reset (attacks T-AUTH-2)', () => {
  it("mails a link on the configured origin, never on the requester's Host header", async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com' });
    const res = await mailPanel.app.inject({
      method: 'POST',
      url: '/auth/password',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { email: 'ann@example.com' },
    });
    expect(res.statusCode).toBe(200);
    const link = resetLinkIn(await smtp.next('ann@example.com'));
    expect(link.origin).toBe(`http://localhost:${mailPanel.config.port}`);
  });

  it('signs nobody in for a 2FA account: the reset answer carries no session, the next sign-in asks for a code', async ({ mailPanel, smtp }) => {
    const user = await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    await mailPanel.enableTotp(user);
    await postJson(mailPanel, '/auth/password', { email: 'ann@example.com' });
    const token = decodeURIComponent(
      resetLinkIn(await smtp.next('ann@example.com'))
        .pathname.split('/')
        .pop() ?? '',
    );
    const jar = new CookieJar();
    const res = await reset(mailPanel, { token, email: 'ann@example.com' });
    expect(res.statusCode).toBe(200);
    jar.store(res);
    expect(jar.get(mailPanel.config.sessionCookie)).toBeUndefined();
    expect((await mailPanel.app.inject({ method: 'GET', url: '/api/client', headers: jar.headers() })).statusCode).toBe(401);
    const next = await login(mailPanel, jar, 'ann', NEW_PASSWORD);
    expect(next.json().data).toEqual({ complete: false, confirmation_token: expect.any(String) });
    expect((await mailPanel.app.inject({ method: 'GET', url: '/api/client/account', headers: jar.headers() })).statusCode).toBe(401);
  });

  it('lets exactly one of two parallel uses of a token set the password', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    await postJson(mailPanel, '/auth/password', { email: 'ann@example.com' });
    const token = decodeURIComponent(
      resetLinkIn(await smtp.next('ann@example.com'))
        .pathname.split('/')
        .pop() ?? '',
    );
    const passwords = ['first new password', 'second new password'];
    const results = await Promise.all(
      passwords.map((p) => reset(mailPanel, { token, email: 'ann@example.com', password: p, password_confirmation: p })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = passwords[results.findIndex((r) => r.statusCode === 200)] ?? '';
    const loser = passwords.find((p) => p !== winner) ?? '';
    expect((await login(mailPanel, new CookieJar(), 'ann', loser)).statusCode).toBe(400);
    expect((await login(mailPanel, new CookieJar(), 'ann', winner)).statusCode).toBe(200);
  });
});

describe('the two-factor checkpoint', () => {
  /** A 2FA account signed in with its password in `jar`: its secret, recovery tokens and pending confirmation token. */
  async function pending(panel: TestPanel, jar = new CookieJar(), ip = '127.0.0.1') {
    const user = await panel.user({ username: 'guarded' });
    const totp = await panel.enableTotp(user);
    const res = await login(panel, jar, 'guarded', PASSWORD, ip);
    return { user, secret: totp.secret, recovery: totp.recovery_tokens, token: res.json().data.confirmation_token as string };
  }

  it('caps wrong codes per challenge at ten, whatever address they come from (attacks T-RL-1)', async ({ panel }) => {
    const jar = new CookieJar();
    const { secret, token } = await pending(panel, jar, '10.0.0.1');
    const wrong = codeAt(panel, secret) === '000000' ? '111111' : '000000';
    // Two per address: neither the address's own count nor the account's and address's is what stops them.
    for (let i = 0; i < 10; i += 1) {
      const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: wrong }, `10.0.${i}.9`);
      expect(res.statusCode).toBe(400);
    }
    const eleventh = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) }, '10.1.0.1');
    expect(eleventh.statusCode).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(eleventh.cookies.find((c) => c.name === panel.config.sessionCookie)).toBeUndefined();
    // A new challenge (the password again) is the way on.
    const fresh = new CookieJar();
    const again = await login(panel, fresh, 'guarded', PASSWORD, '10.1.0.2');
    const ok = await checkpoint(
      panel,
      fresh,
      { confirmation_token: again.json().data.confirmation_token, authentication_code: codeAt(panel, secret) },
      '10.1.0.2',
    );
    expect(ok.statusCode).toBe(200);
  });

  it('gives a login waiting for its code no access to the API or the account (attacks T-AUTH-3)', async ({ panel }) => {
    const jar = new CookieJar();
    await pending(panel, jar);
    for (const [method, url] of [
      ['GET', '/api/client'],
      ['GET', '/api/client/account'],
      ['POST', '/api/client/account/two-factor/disable'],
    ] as const) {
      const res = await panel.app.inject({ method, url, headers: jar.headers(), ...(method === 'POST' ? { payload: { password: PASSWORD } } : {}) });
      expect(res.statusCode).toBe(401);
    }
    expect((await panel.db.selectFrom('users').select('use_totp').where('username', '=', 'guarded').executeTakeFirstOrThrow()).use_totp).toBe(1);
  });

  it('lets one recovery token through once when two sign-ins race with it (attacks T-AUTH-4)', async ({ panel }) => {
    const first = new CookieJar();
    const { recovery } = await pending(panel, first);
    const second = new CookieJar();
    const other = (await login(panel, second, 'guarded')).json().data.confirmation_token as string;
    const firstToken = (await login(panel, first, 'guarded')).json().data.confirmation_token as string;
    const token = recovery[0] ?? '';
    const results = await Promise.all([
      checkpoint(panel, first, { confirmation_token: firstToken, recovery_token: token }),
      checkpoint(panel, second, { confirmation_token: other, recovery_token: token }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('lets one TOTP code through once when two sign-ins race with it (attacks T-AUTH-4)', async ({ panel }) => {
    const first = new CookieJar();
    const { secret, token } = await pending(panel, first);
    const second = new CookieJar();
    const other = (await login(panel, second, 'guarded')).json().data.confirmation_token as string;
    const code = codeAt(panel, secret);
    const results = await Promise.all([
      checkpoint(panel, first, { confirmation_token: token, authentication_code: code }),
      checkpoint(panel, second, { confirmation_token: other, authentication_code: code }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('gives a new session cookie at the checkpoint and ends the one the browser had (attacks T-SESS-1)', async ({ panel }) => {
    const { user, secret } = await pending(panel);
    const old = await panel.sessionHeaders(user);
    const start = await panel.app.inject({ method: 'POST', url: '/auth/login', headers: old, payload: { user: 'guarded', password: PASSWORD } });
    expect(start.cookies.find((c) => c.name === panel.config.sessionCookie)).toBeUndefined();
    const challenge = start.cookies.find((c) => c.name === `${panel.config.sessionCookie}_challenge`);
    const done = await panel.app.inject({
      method: 'POST',
      url: '/auth/login/checkpoint',
      headers: { ...old, cookie: `${old.cookie ?? ''}; ${challenge?.name ?? ''}=${challenge?.value ?? ''}` },
      payload: { confirmation_token: start.json().data.confirmation_token, authentication_code: codeAt(panel, secret) },
    });
    expect(done.statusCode).toBe(200);
    const fresh = done.cookies.find((c) => c.name === panel.config.sessionCookie)?.value;
    expect(fresh).toMatch(/.{32,}/);
    expect(old.cookie).not.toContain(fresh);
    expect((await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: old })).statusCode).toBe(401);
  });
});
