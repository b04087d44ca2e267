import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { runCli } from '../cli/commands';
import { loadSecretBox } from '../lib/secret-box';
import { checkpoint, codeAt, CookieJar, login, PASSWORD } from '../test/auth-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

const cookieNamed = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);
const account = (panel: TestPanel, jar: CookieJar) => panel.app.inject({ url: '/api/client/account', headers: jar.headers() });
const minutes = (n: number) => n * 60_000;

describe('session lifetimes', () => {
  it('end a session at its absolute lifetime however active it was', async ({ makePanel }) => {
    const panel = await makePanel({ sessionLifetimeMinutes: 60, sessionAbsoluteLifetimeMinutes: 180 });
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    for (let elapsed = 50; elapsed < 180; elapsed += 50) {
      panel.clock.advance(minutes(50));
      expect((await account(panel, jar)).statusCode).toBe(200);
    }
    panel.clock.advance(minutes(30)); // 180 minutes after sign-in, 30 after the last request
    expect((await account(panel, jar)).statusCode).toBe(401);
  });

  it('still end an idle session at the sliding lifetime', async ({ makePanel }) => {
    const panel = await makePanel({ sessionLifetimeMinutes: 60, sessionAbsoluteLifetimeMinutes: 180 });
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    panel.clock.advance(minutes(61));
    expect((await account(panel, jar)).statusCode).toBe(401);
  });

  it('re-issue both cookies when the expiry slides, never past the absolute end', async ({ makePanel }) => {
    const panel = await makePanel({ sessionLifetimeMinutes: 60, sessionAbsoluteLifetimeMinutes: 100 });
    await panel.user({ username: 'alice' });
    const jar = new CookieJar();
    const signIn = await login(panel, jar, 'alice');
    const token = cookieNamed(signIn, panel.config.sessionCookie)?.value;
    expect(cookieNamed(signIn, panel.config.sessionCookie)?.maxAge).toBe(60 * 60);

    panel.clock.advance(30_000);
    expect((await account(panel, jar)).cookies).toEqual([]); // nothing moved yet

    panel.clock.advance(minutes(2) - 30_000);
    const slid = await account(panel, jar);
    expect(cookieNamed(slid, panel.config.sessionCookie)).toMatchObject({ value: token, maxAge: 60 * 60, httpOnly: true, path: '/' });
    expect(cookieNamed(slid, 'XSRF-TOKEN')).toMatchObject({ value: jar.get('XSRF-TOKEN'), maxAge: 60 * 60 });

    panel.clock.advance(minutes(58)); // 60 minutes in: only 40 remain before the absolute end
    const late = await account(panel, jar);
    expect(cookieNamed(late, panel.config.sessionCookie)?.maxAge).toBe(40 * 60);
  });
});

describe('signing a user out everywhere', () => {
  const it2 = it.extend(
    'cli',
    async ({ panel }) =>
      (...argv: string[]) =>
        runCli(argv, {
          db: panel.db,
          nodes: panel.nodes,
          clock: panel.clock,
          box: loadSecretBox(panel.dataDir),
          readStdin: () => 'a new long password\n',
        }),
  );

  it2('user:password sets the password read from standard input and ends every session', async ({ panel, cli }) => {
    await panel.user({ username: 'alice', email: 'alice@example.com' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    expect(await cli('user:password', '--email', 'alice@example.com')).toMatchObject({ email: 'alice@example.com', sessions_ended: 1 });
    expect((await account(panel, jar)).statusCode).toBe(401);
    expect((await login(panel, new CookieJar(), 'alice', PASSWORD)).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'alice', 'a new long password')).statusCode).toBe(200);
  });

  it2('user:2fa ends every session, and the new secret works at the checkpoint', async ({ panel, cli }) => {
    await panel.user({ username: 'alice', email: 'alice@example.com' });
    const jar = new CookieJar();
    await login(panel, jar, 'alice');
    const { secret } = (await cli('user:2fa', '--email', 'alice@example.com')) as { secret: string };
    expect((await account(panel, jar)).statusCode).toBe(401);

    const fresh = new CookieJar();
    const token: string = (await login(panel, fresh, 'alice')).json().data.confirmation_token;
    expect((await checkpoint(panel, fresh, { confirmation_token: token, authentication_code: codeAt(panel, secret) })).statusCode).toBe(200);
  });

  it2('session:revoke ends the sessions of that user only', async ({ panel, cli }) => {
    await panel.user({ username: 'alice', email: 'alice@example.com' });
    await panel.user({ username: 'bob' });
    const [alice1, alice2, bob] = [new CookieJar(), new CookieJar(), new CookieJar()];
    await login(panel, alice1, 'alice');
    await login(panel, alice2, 'alice');
    await login(panel, bob, 'bob');
    expect(await cli('session:revoke', '--email', 'alice@example.com')).toEqual({ email: 'alice@example.com', sessions_ended: 2 });
    expect((await account(panel, alice1)).statusCode).toBe(401);
    expect((await account(panel, alice2)).statusCode).toBe(401);
    expect((await account(panel, bob)).statusCode).toBe(200);
  });
});
