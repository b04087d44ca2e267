import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { runCli } from '../cli/commands';
import { loadConfig } from '../config';
import { loadSecretBox } from '../lib/secret-box';
import { CookieJar, login, PASSWORD, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { resetLinkIn, startMailCapture, type MailCapture } from '../test/mail-capture';
import { listen } from '../test/raw-http';

const SENT = { status: 'We have e-mailed your password reset link!' };
const INVALID = { errors: [{ code: 'DisplayException', status: '400', detail: 'This password reset token is invalid.' }] };
const NEW_PASSWORD = 'a brand new password';

const it = test
  // A real SMTP server that wants the credentials SMTP_URL carries, and a panel sending to it.
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('smtp', async ({}, { onCleanup }) => {
    const capture = await startMailCapture({ auth: { user: 'panel', pass: 's3cret/pass' } });
    onCleanup(() => capture.close());
    return capture;
  })
  .extend('mailPanel', async ({ makePanel, smtp }) => makePanel({ smtpUrl: smtp.url, appUrl: 'https://panel.example.com/' }));

function forgot(panel: TestPanel, email: string, ip = '127.0.0.1') {
  return postJson(panel, '/auth/password', { email }, undefined, ip);
}

function reset(panel: TestPanel, body: Record<string, string>, ip = '127.0.0.1') {
  return postJson(panel, '/auth/password/reset', { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD, ...body }, undefined, ip);
}

/** Asks for a link for `email` and returns the token and address the mailed link carries. */
async function mailedLink(panel: TestPanel, smtp: MailCapture, email: string) {
  const res = await forgot(panel, email);
  expect(res.statusCode).toBe(200);
  const link = resetLinkIn(await smtp.next(email));
  return { link, token: decodeURIComponent(link.pathname.split('/').pop() ?? ''), email: link.searchParams.get('email') ?? '' };
}

describe('POST /auth/password (forgot password)', () => {
  // attacks T-AUTH-2
  it('mails a reset link on APP_URL through the SMTP server, with its credentials', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com' });
    const res = await forgot(mailPanel, 'ann@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SENT);
    const mail = await smtp.next('ann@example.com');
    expect(mail.from).toBe('no-reply@localhost');
    expect(mail.subject).toBe('Aerie: reset your password');
    const link = resetLinkIn(mail);
    expect(link.origin).toBe('https://panel.example.com');
    expect(link.pathname).toMatch(/^\/auth\/password\/reset\/[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('email')).toBe('ann@example.com');
  });

  it('without APP_URL, mails the reset link on the address the panel listens on, not the request Host (issue 22 polish)', async ({
    makePanel,
    smtp,
  }) => {
    const panel = await makePanel({ smtpUrl: smtp.url, host: '127.0.0.1' });
    const port = await listen(panel.app);
    await panel.user({ email: 'ann@example.com' });
    const res = await panel.app.inject({
      method: 'POST',
      url: '/auth/password',
      payload: { email: 'ann@example.com' },
      headers: { host: 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.next('ann@example.com');
    const link = resetLinkIn(mail);
    expect(link.origin).toBe(`http://127.0.0.1:${port}`);
    // A reset stays a reset: the page is not told it is an invite.
    expect(link.searchParams.has('invite')).toBe(false);
    expect(mail.text).toContain('Set a new one here');
  });

  it('takes back the XSRF cookie of a browser without a session, and leaves a signed-in one alone', async ({ mailPanel }) => {
    await mailPanel.user({ username: 'ann', email: 'ann@example.com' });
    const anonymous = new CookieJar();
    anonymous.store(await mailPanel.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' }));
    expect(anonymous.get('XSRF-TOKEN')).toBeDefined();
    const res = await postJson(mailPanel, '/auth/password', { email: 'ann@example.com' }, anonymous);
    expect(res.statusCode).toBe(200);
    anonymous.store(res);
    // The sign-in page reads this cookie as "may be signed in": it must be gone.
    expect(anonymous.get('XSRF-TOKEN')).toBeUndefined();

    const signedIn = new CookieJar();
    expect((await login(mailPanel, signedIn, 'ann')).statusCode).toBe(200);
    const token = signedIn.get('XSRF-TOKEN');
    signedIn.store(await postJson(mailPanel, '/auth/password', { email: 'ann@example.com' }, signedIn));
    expect(signedIn.get('XSRF-TOKEN')).toBe(token);
    expect((await mailPanel.app.inject({ method: 'GET', url: '/api/client/account', headers: signedIn.headers() })).statusCode).toBe(200);
  });

  it('sends from MAIL_FROM', async ({ makePanel, smtp }) => {
    const panel = await makePanel({ smtpUrl: smtp.url, mailFrom: 'Aerie <panel@example.com>' });
    await panel.user({ email: 'ann@example.com' });
    expect((await forgot(panel, 'ann@example.com')).statusCode).toBe(200);
    expect((await smtp.next('ann@example.com')).from).toBe('panel@example.com');
  });

  it('gives an unknown address the same answer and sends it nothing', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com' });
    const unknown = await forgot(mailPanel, 'nobody@example.com');
    const known = await forgot(mailPanel, 'ann@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await smtp.next('ann@example.com');
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.map((m) => m.to)).toEqual([['ann@example.com']]);
  });

  it('refuses a malformed address with 422 on the field and sends nothing', async ({ mailPanel, smtp }) => {
    const res = await forgot(mailPanel, 'not an address');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field: 'email' } });
    const missing = await postJson(mailPanel, '/auth/password', {});
    expect(missing.json().errors[0]).toMatchObject({ detail: 'The email field is required.', source: { field: 'email' } });
    expect(smtp.mails).toEqual([]);
  });

  it('tells the SPA mail is configured', async ({ mailPanel }) => {
    const res = await mailPanel.app.inject({ method: 'GET', url: '/auth/password/status' });
    expect(res.json()).toEqual({ data: { mail: true } });
  });
});

describe('SMTP_URL', () => {
  it('takes smtp:// and smtps:// URLs only', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe('smtps://u:p@mail.example.com:465');
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
  });

  it('a mail server that is down changes nothing in the answer', async ({ makePanel }) => {
    const gone = await startMailCapture();
    await gone.close();
    const panel = await makePanel({ smtpUrl: gone.url });
    await panel.user({ email: 'ann@example.com' });
    const res = await forgot(panel, 'ann@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SENT);
    await new Promise((r) => setTimeout(r, 200));
  });
});

describe('POST /auth/password/reset', () => {
  it('sets the password once, ends every session and records auth:password-reset', async ({ mailPanel, smtp }) => {
    const user = await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    const jar = new CookieJar();
    expect((await login(mailPanel, jar, 'ann')).statusCode).toBe(200);
    const other = await mailPanel.sessionHeaders(user);
    const { token, email } = await mailedLink(mailPanel, smtp, 'ann@example.com');

    const res = await reset(mailPanel, { token, email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, redirect_to: '/', send_to_login: true });
    // The browser's cookies go as at a logout (the SPA then knows, without asking, that nobody is signed in).
    expect(String(res.headers['set-cookie'])).toMatch(/XSRF-TOKEN=;.*Expires=Thu, 01 Jan 1970/);

    // Every session is over: the browser's and the other one.
    for (const headers of [jar.headers(), other]) {
      expect((await mailPanel.app.inject({ method: 'GET', url: '/api/client/account', headers })).statusCode).toBe(401);
    }
    expect((await login(mailPanel, new CookieJar(), 'ann', PASSWORD)).statusCode).toBe(400);
    expect((await login(mailPanel, new CookieJar(), 'ann', NEW_PASSWORD)).statusCode).toBe(200);

    // Spent: a second use is refused and changes nothing.
    const again = await reset(mailPanel, { token, email, password: 'yet another one', password_confirmation: 'yet another one' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
    expect((await login(mailPanel, new CookieJar(), 'ann', NEW_PASSWORD)).statusCode).toBe(200);

    const events = await mailPanel.db.selectFrom('activity_logs').select(['event', 'actor_id']).where('event', '=', 'auth:password-reset').execute();
    expect(events).toEqual([{ event: 'auth:password-reset', actor_id: null }]);
  });

  it('refuses a token after 60 minutes', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    const { token, email } = await mailedLink(mailPanel, smtp, 'ann@example.com');
    mailPanel.clock.advance(60 * 60_000);
    const res = await reset(mailPanel, { token, email });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID);
    expect((await login(mailPanel, new CookieJar(), 'ann', PASSWORD)).statusCode).toBe(200);
  });

  it('still takes a token at 59 minutes', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com' });
    const { token, email } = await mailedLink(mailPanel, smtp, 'ann@example.com');
    mailPanel.clock.advance(59 * 60_000);
    expect((await reset(mailPanel, { token, email })).statusCode).toBe(200);
  });

  // attacks T-AUTH-2
  it('takes only the latest token, only with its own address', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com' });
    await mailPanel.user({ email: 'bob@example.com' });
    const first = await mailedLink(mailPanel, smtp, 'ann@example.com');
    const second = await mailedLink(mailPanel, smtp, 'ann@example.com');
    expect((await reset(mailPanel, { token: first.token, email: 'ann@example.com' })).json()).toEqual(INVALID);
    expect((await reset(mailPanel, { token: second.token, email: 'bob@example.com' })).json()).toEqual(INVALID);
    expect((await reset(mailPanel, { token: second.token, email: 'nobody@example.com' })).json()).toEqual(INVALID);
    expect((await reset(mailPanel, { token: 'made-up', email: 'ann@example.com' })).json()).toEqual(INVALID);
    expect((await reset(mailPanel, { token: second.token, email: 'ann@example.com' })).statusCode).toBe(200);
  });

  it('checks the new password and its confirmation (422 on the field), keeping the token', async ({ mailPanel, smtp }) => {
    await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    const { token, email } = await mailedLink(mailPanel, smtp, 'ann@example.com');
    const short = await reset(mailPanel, { token, email, password: 'seven77', password_confirmation: 'seven77' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual([
      expect.objectContaining({ detail: 'The password must be at least 8 characters.', source: { field: 'password' } }),
    ]);
    const mismatch = await reset(mailPanel, { token, email, password_confirmation: 'something else' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors).toEqual([
      expect.objectContaining({ detail: 'The password confirmation does not match.', source: { field: 'password_confirmation' } }),
    ]);
    expect((await login(mailPanel, new CookieJar(), 'ann', PASSWORD)).statusCode).toBe(200);
    expect((await reset(mailPanel, { token, email })).statusCode).toBe(200);
  });

  // attacks T-AUTH-2
  it('leaves two-factor on: the next sign-in still asks for a code', async ({ mailPanel, smtp }) => {
    const user = await mailPanel.user({ email: 'ann@example.com', username: 'ann' });
    await mailPanel.enableTotp(user);
    const { token, email } = await mailedLink(mailPanel, smtp, 'ann@example.com');
    expect((await reset(mailPanel, { token, email })).statusCode).toBe(200);
    const res = await login(mailPanel, new CookieJar(), 'ann', NEW_PASSWORD);
    expect(res.json().data).toMatchObject({ complete: false });
  });
});

describe('password reset rate limits', () => {
  it('allows five requests per address in 15 minutes, then 429 with Retry-After', async ({ mailPanel }) => {
    for (let i = 0; i < 5; i += 1) expect((await forgot(mailPanel, 'Ann@example.com', `10.0.0.${i + 1}`)).statusCode).toBe(200);
    const res = await forgot(mailPanel, 'ann@example.com', '10.0.1.1');
    expect(res.statusCode).toBe(429);
    expect(res.json().errors[0]).toMatchObject({ code: 'ThrottleRequestsException', status: '429' });
    expect(res.headers['retry-after']).toBe('900');
    // Another address is not held up, and the window slides open again.
    expect((await forgot(mailPanel, 'bob@example.com', '10.0.1.1')).statusCode).toBe(200);
    mailPanel.clock.advance(15 * 60_000);
    expect((await forgot(mailPanel, 'ann@example.com', '10.0.1.1')).statusCode).toBe(200);
  });

  it('allows twenty requests per client address in 15 minutes, resets included', async ({ mailPanel }) => {
    for (let i = 0; i < 10; i += 1) expect((await forgot(mailPanel, `u${i}@example.com`, '10.0.0.9')).statusCode).toBe(200);
    for (let i = 0; i < 10; i += 1) expect((await reset(mailPanel, { token: 'x', email: 'u@example.com' }, '10.0.0.9')).statusCode).toBe(400);
    const res = await forgot(mailPanel, 'other@example.com', '10.0.0.9');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await forgot(mailPanel, 'other@example.com', '10.0.0.10')).statusCode).toBe(200);
  });
});

describe('without SMTP_URL', () => {
  it('answers the same, sends nothing, hides the link, and the CLI prints a working link', async ({ panel }) => {
    await panel.user({ email: 'ann@example.com', username: 'ann' });
    const smtp = await startMailCapture();
    onTestFinished(() => smtp.close());

    const res = await forgot(panel, 'ann@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SENT);
    const status = await panel.app.inject({ method: 'GET', url: '/auth/password/status' });
    expect(status.json()).toEqual({ data: { mail: false } });

    const printed = (await runCli(['user:reset-link', '--email', 'ann@example.com'], {
      db: panel.db,
      nodes: panel.nodes,
      clock: panel.clock,
      box: loadSecretBox(panel.dataDir),
      publicUrl: 'https://panel.example.com',
    })) as { email: string; link: string };
    expect(printed.email).toBe('ann@example.com');
    const link = new URL(printed.link);
    expect(link.origin).toBe('https://panel.example.com');
    expect(link.searchParams.get('email')).toBe('ann@example.com');
    const token = decodeURIComponent(link.pathname.split('/').pop() ?? '');
    expect((await reset(panel, { token, email: 'ann@example.com' })).statusCode).toBe(200);
    expect((await login(panel, new CookieJar(), 'ann', NEW_PASSWORD)).statusCode).toBe(200);
    expect(smtp.mails).toEqual([]);
  });

  it('the CLI refuses an unknown address', async ({ panel }) => {
    const deps = { db: panel.db, nodes: panel.nodes, clock: panel.clock, box: loadSecretBox(panel.dataDir) };
    await expect(runCli(['user:reset-link', '--email', 'nobody@example.com'], deps)).rejects.toThrow('No user with email nobody@example.com.');
  });

  it('user:reset-link prints one JSON line with a link on APP_URL, else on localhost:PORT', { timeout: 60_000 }, ({ tempDir: dataDir }) => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const run = (args: string[], extra: Record<string, string> = {}) =>
      execFileSync(tsx, ['server/cli.ts', ...args], {
        env: { ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra },
        encoding: 'utf8',
      });
    run(['user:create', '--email', 'ann@example.com', '--username', 'ann', '--password', 'first-password']);
    const lines = run(['user:reset-link', '--email', 'ann@example.com'], { APP_URL: 'https://panel.example.com/' }).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      email: 'ann@example.com',
      link: expect.stringMatching(/^https:\/\/panel\.example\.com\/auth\/password\/reset\/[A-Za-z0-9_-]{43}\?email=ann%40example\.com$/),
      expires_in_minutes: 60,
    });
    const local = JSON.parse(run(['user:reset-link', '--email', 'ann@example.com'], { PORT: '9099', APP_URL: '' }).trim()) as { link: string };
    expect(local.link).toMatch(/^http:\/\/localhost:9099\/auth\/password\/reset\//);
  });
});
