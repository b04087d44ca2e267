import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sshpk from 'sshpk';
import { describe, expect } from 'vitest';
import { buildApp } from '../app';
import { createApiKey } from '../services/api-keys';
import { checkpoint, codeAt, CookieJar, login, logout, PASSWORD, postJson } from '../test/auth-support';
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

describe('sign-in failures (attacks T-AUTH-1)', () => {
  it('take comparable time for an unknown account, a plain one and a 2FA one (one password hash check each)', async ({ panel }) => {
    await panel.user({ username: 'plain' });
    await panel.enableTotp(await panel.user({ username: 'guarded' }));
    const median = async (name: string, n: number) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const started = performance.now();
        const res = await postJson(panel, '/auth/login', { user: name, password: 'wrong password' }, undefined, `10.7.${n}.${i}`);
        times.push(performance.now() - started);
        expect(res.json().data).toBeUndefined();
      }
      return times.sort((a, b) => a - b)[2] ?? 0;
    };
    const medians = [await median('nobody', 1), await median('plain', 2), await median('guarded', 3)];
    // Loose, for a busy machine: a skipped hash would be tens of times faster, not a third.
    expect(Math.min(...medians)).toBeGreaterThan(Math.max(...medians) / 3);
  });
});

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
    expect(next.json().data).toEqual({ complete: false, confirmation_token: expect.stringMatching(/^.{16,}$/) });
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

  it('signs one challenge in once when two right answers for it race (attacks T-AUTH-3)', async ({ panel }) => {
    const jar = new CookieJar();
    const { recovery, token } = await pending(panel, jar);
    const results = await Promise.all(
      [recovery[0], recovery[1]].map((r) => postJson(panel, '/auth/login/checkpoint', { confirmation_token: token, recovery_token: r ?? '' }, jar)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await panel.db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
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

describe('no global lock-out (attacks T-RL-2)', () => {
  it('fifty junk sign-ins from one address leave another address free to sign in with 2FA, spoofed X-Forwarded-For or not', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    const junk = async (i: number) => {
      const url = i % 2 ? '/auth/login/checkpoint' : '/auth/login';
      const payload = i % 2 ? { confirmation_token: 'x'.repeat(64), authentication_code: '123456' } : { user: 'alice', password: `guess ${i}` };
      // Claims to be the victim's address: with no trusted proxy the header is not believed.
      return panel.app.inject({ method: 'POST', url, payload, remoteAddress: '198.51.100.1', headers: { 'x-forwarded-for': '203.0.113.5' } });
    };
    const codes: number[] = [];
    for (let i = 0; i < 50; i += 1) codes.push((await junk(i)).statusCode);
    expect(codes.slice(-40).every((c) => c === 429)).toBe(true);
    const jar = new CookieJar();
    const first = await login(panel, jar, 'alice', PASSWORD, '203.0.113.5');
    expect(first.statusCode).toBe(200);
    const done = await checkpoint(
      panel,
      jar,
      { confirmation_token: first.json().data.confirmation_token, authentication_code: codeAt(panel, secret) },
      '203.0.113.5',
    );
    expect(done.statusCode).toBe(200);
  });
});

describe('CSRF on cookie-authenticated changes (attacks T-CSRF-1)', () => {
  it('refuses account changes without the token, with a wrong one, as a form or text/plain, or from a foreign Origin; changes nothing', async ({
    panel,
  }) => {
    const user = await panel.user({ email: 'ann@example.com' });
    const { identifier } = await createApiKey(panel.db, user.id, 'kept', panel.clock.now());
    await panel.enableTotp(user);
    const signedIn = await panel.sessionHeaders(user);
    const cookie = signedIn.cookie ?? '';
    const attempts: { method: 'PUT' | 'POST' | 'DELETE'; url: string; json: object }[] = [
      { method: 'PUT', url: '/email', json: { email: 'evil@example.com', password: PASSWORD } },
      { method: 'PUT', url: '/password', json: { current_password: PASSWORD, password: 'pwned pwned', password_confirmation: 'pwned pwned' } },
      { method: 'POST', url: '/two-factor/disable', json: { password: PASSWORD } },
      { method: 'POST', url: '/api-keys', json: { description: 'evil' } },
      { method: 'DELETE', url: `/api-keys/${identifier}`, json: {} },
    ];
    const variants: Record<string, string>[] = [
      { cookie },
      { cookie, 'x-xsrf-token': 'forged' },
      { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      { cookie, 'content-type': 'text/plain' },
      { cookie, origin: 'https://evil.example', referer: 'https://evil.example/' },
    ];
    for (const { method, url, json } of attempts) {
      for (const headers of variants) {
        const type = headers['content-type'];
        const payload =
          type === 'application/x-www-form-urlencoded'
            ? new URLSearchParams(json as Record<string, string>).toString()
            : type
              ? JSON.stringify(json)
              : json;
        const res = await panel.app.inject({ method, url: `/api/client/account${url}`, headers, payload });
        expect([403, 415, 419]).toContain(res.statusCode);
      }
    }
    const row = await panel.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'ann@example.com', use_totp: 1 });
    expect((await login(panel, new CookieJar(), 'ann@example.com')).json().data.complete).toBe(false);
    const keys = await account(panel, signedIn, 'GET', '/api-keys');
    expect(keys.json().data.map((k: { attributes: { description: string } }) => k.attributes.description)).toEqual(['kept']);
  });
});

describe('two-factor management (attacks T-AUTH-5)', () => {
  it('turns off only by POST with the CSRF token and the password', async ({ panel }) => {
    const user = await panel.user({ username: 'ann' });
    await panel.enableTotp(user);
    const headers = await panel.sessionHeaders(user);
    expect((await account(panel, headers, 'DELETE', '/two-factor', { password: PASSWORD })).statusCode).toBe(404);
    expect((await account(panel, { cookie: headers.cookie ?? '' }, 'POST', '/two-factor/disable', { password: PASSWORD })).statusCode).toBe(419);
    expect((await account(panel, headers, 'POST', '/two-factor/disable', { password: 'not the password' })).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(false);
  });

  it('is reachable with a bearer API key, as the spec has every client route, but only with the password', async ({ panel }) => {
    const user = await panel.user({ username: 'ann' });
    await panel.enableTotp(user);
    const bearer = await panel.bearerHeaders(user);
    expect((await account(panel, bearer, 'POST', '/two-factor/disable', { password: 'not the password' })).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(false);
    const off = await account(panel, bearer, 'POST', '/two-factor/disable', { password: PASSWORD });
    expect(off.statusCode).toBe(204);
    expect(off.cookies).toEqual([]);
  });
});

describe('sessions and API keys', () => {
  it('a cookie replayed after sign-out cannot read or change anything (attacks T-SESS-2)', async ({ panel }) => {
    await panel.user({ username: 'ann', email: 'ann@example.com' });
    const jar = new CookieJar();
    await login(panel, jar, 'ann');
    const copied = jar.headers();
    expect((await logout(panel, jar)).statusCode).toBe(204);
    expect((await account(panel, copied, 'GET', '')).statusCode).toBe(401);
    expect((await changeEmail(panel, copied, 'evil@example.com')).statusCode).toBe(401);
    expect((await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: copied })).statusCode).toBe(401);
    expect((await panel.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers: copied })).cookies.map((c) => c.name)).toEqual([
      'XSRF-TOKEN',
    ]);
  });

  it('a bearer key sets no cookie that works alone, and stops at once when deleted, even by itself (attacks T-SESS-3)', async ({ panel }) => {
    const user = await panel.user();
    const { token, identifier } = await createApiKey(panel.db, user.id, 'doomed', panel.clock.now());
    const bearer = { authorization: `Bearer ${token}` };
    const used = await account(panel, bearer, 'GET', '');
    expect(used.statusCode).toBe(200);
    expect(used.headers['set-cookie']).toBeUndefined();
    // Deleted by the key itself, while other requests with it are in flight.
    const [, ...during] = await Promise.all([
      account(panel, bearer, 'DELETE', `/api-keys/${identifier}`),
      ...Array.from({ length: 5 }, () => account(panel, bearer, 'GET', '')),
    ]);
    for (const res of during) expect(res.headers['set-cookie']).toBeUndefined();
    const after = await account(panel, bearer, 'GET', '');
    expect(after.statusCode).toBe(401);
    expect((await account(panel, bearer, 'POST', '/api-keys', { description: 'revived' })).statusCode).toBe(401);
  });

  it('keeps the cap of 25 keys when creations race (attacks T-SESS-3)', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    for (let i = 0; i < 23; i += 1) await createApiKey(panel.db, user.id, `k${i}`, panel.clock.now());
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => account(panel, headers, 'POST', '/api-keys', { description: `race${i}` })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect((await account(panel, headers, 'GET', '/api-keys')).json().data).toHaveLength(25);
  });

  it('a key limited to 10.0.0.0/8 is refused from 127.0.0.1 and ::ffff:127.0.0.1, accepted from ::ffff:10.1.2.3 in either notation (attacks T-SESS-3)', async ({
    panel,
  }) => {
    const user = await panel.user();
    const { token } = await createApiKey(panel.db, user.id, 'internal', panel.clock.now(), ['10.0.0.0/8']);
    const from = (remoteAddress: string) =>
      panel.app.inject({
        method: 'GET',
        url: '/api/client/account',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.0.0.1' },
        remoteAddress,
      });
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::1', '11.0.0.1']) expect((await from(ip)).statusCode).toBe(403);
    for (const ip of ['10.0.0.1', '::ffff:10.1.2.3', '::ffff:a00:1']) expect((await from(ip)).statusCode).toBe(200);
  });
});

describe('SSH keys', () => {
  const keyLine = (comment: string) => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
    key.comment = comment;
    return key.toString('ssh');
  };

  it('refuses a 10 MB body with 413 and stores nothing', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const res = await account(panel, headers, 'POST', '/ssh-keys', { name: 'big', public_key: `${keyLine('x')} ${'A'.repeat(10 * 1024 * 1024)}` });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0].status).toBe('413');
    expect((await account(panel, headers, 'GET', '/ssh-keys')).json().data).toEqual([]);
  });

  it('keeps HTML in a name as text and drops the comment of the key line', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const name = '<img src=x onerror=alert(1)>';
    const res = await account(panel, headers, 'POST', '/ssh-keys', { name, public_key: keyLine('<script>alert(1)</script>') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().attributes.name).toBe(name);
    expect(res.json().attributes.public_key).not.toContain('<script>');
  });
});

describe('files loaded by name (attacks T-LFI-1)', () => {
  it('never serve a file from outside the built SPA, nor a locale loader', async ({ panel, tempDir }) => {
    const spaDir = path.join(tempDir, 'spa');
    fs.mkdirSync(path.join(spaDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>Aerie</title>');
    fs.writeFileSync(path.join(spaDir, 'assets', 'app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(tempDir, 'CANARY-HOST'), 'CANARY-HOST');
    const app = await buildApp({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock, spaDir });
    try {
      expect((await app.inject({ url: '/assets/app.js' })).body).toBe('console.log(1)');
      for (const url of [
        '/assets/../../CANARY-HOST',
        '/assets/..%2f..%2fCANARY-HOST',
        '/assets/%2e%2e/%2e%2e/CANARY-HOST',
        '/assets/..%5c..%5cCANARY-HOST',
        `/assets/${encodeURIComponent(path.join(tempDir, 'CANARY-HOST'))}`,
        '/assets/app.js%00.png',
        '/locales/locale.json?locale=../../CANARY-HOST&namespace=app',
        '/locales/locale.json?locale=en&namespace=../../../.env',
        `/locales/locale.json?locale=${encodeURIComponent(path.join(tempDir, 'CANARY-HOST'))}&namespace=x`,
        '/../CANARY-HOST',
        '/%2e%2e/CANARY-HOST',
        '/index.html/../../CANARY-HOST',
      ]) {
        const res = await app.inject({ url });
        expect(res.body, url).not.toContain('CANARY-HOST');
        if (res.statusCode === 200) expect(res.body, url).toContain('<title>Aerie</title>');
        else expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      }
    } finally {
      await app.close();
    }
  });
});
