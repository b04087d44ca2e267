import { describe, expect } from 'vitest';
import { CookieJar, login, PASSWORD } from '../test/auth-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { createApiKey } from '../services/api-keys';

/** A browser signed in as alice, and a way to ask whether its session still works. */
const test = it.extend('signedIn', async ({ panel }) => {
  await panel.user({ username: 'alice' });
  const jar = new CookieJar();
  await login(panel, jar, 'alice');
  const cookie = jar.headers().cookie ?? '';
  return {
    jar,
    /** The session cookie alone, with the matching CSRF header or without it. */
    headers: (withCsrf: boolean): Record<string, string> => ({ cookie, ...(withCsrf ? { 'x-xsrf-token': jar.get('XSRF-TOKEN') ?? '' } : {}) }),
    stillValid: async () => (await panel.app.inject({ url: '/api/client/account', headers: { cookie } })).statusCode === 200,
  };
});

/** Other spellings of `/auth/login`: those the router sends to the login route, and those it does not (routing is case-sensitive, `;` is no delimiter). */
const ROUTED = ['/%61uth/login', '/auth/%6Cogin', '/auth/login/'];
const NOT_ROUTED = ['//auth/login', '/AUTH/login', '/auth/login;x=1', '/auth;x=1/login'];

// attacks T-CSRF-1
describe('the caller and the CSRF check follow the matched route, not the raw URL', () => {
  for (const url of ROUTED) {
    test(`${url}: a signed-in browser without the CSRF header gets 419 and keeps its session`, async ({ panel, signedIn }) => {
      const res = await panel.app.inject({ method: 'POST', url, headers: signedIn.headers(false), payload: { user: 'alice', password: PASSWORD } });
      expect(res.statusCode).toBe(419);
      expect(res.cookies).toEqual([]);
      expect(await signedIn.stillValid()).toBe(true);
    });

    test(`${url}: a login with the CSRF header replaces the old session`, async ({ panel, signedIn }) => {
      const res = await panel.app.inject({ method: 'POST', url, headers: signedIn.headers(true), payload: { user: 'alice', password: PASSWORD } });
      expect(res.statusCode).toBe(200);
      expect(await signedIn.stillValid()).toBe(false);
    });
  }

  for (const url of NOT_ROUTED) {
    test(`${url} reaches no route and changes nothing`, async ({ panel, signedIn }) => {
      const res = await panel.app.inject({ method: 'POST', url, headers: signedIn.headers(true), payload: { user: 'alice', password: PASSWORD } });
      expect(res.statusCode).toBe(404);
      expect(res.cookies).toEqual([]);
      expect(await signedIn.stillValid()).toBe(true);
    });
  }

  test('an encoded API path still needs a caller', async ({ panel }) => {
    expect((await panel.app.inject({ url: '/%61pi/client/account' })).statusCode).toBe(401);
  });
});

describe('which Authorization header means an API key', () => {
  test('HTTP Basic from a reverse proxy falls through to the session cookie', async ({ panel, signedIn }) => {
    const headers = { ...signedIn.headers(false), authorization: `Basic ${Buffer.from('proxy:secret').toString('base64')}` };
    const res = await panel.app.inject({ url: '/api/client/account', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.username).toBe('alice');
  });

  test('a Bearer token that is not a key is 401, whatever cookie comes with it', async ({ panel, signedIn }) => {
    for (const authorization of ['Bearer ptlc_nope', 'bearer', 'Bearer two words', `Bearer ${'x'.repeat(600)}`]) {
      const res = await panel.app.inject({ url: '/api/client/account', headers: { ...signedIn.headers(false), authorization } });
      expect(res.statusCode).toBe(401);
    }
  });
});

// attacks T-SESS-3
describe('the addresses an API key may be used from', () => {
  const keyFor = async (panel: TestPanel, allowed: string[]) => {
    const user = await panel.user();
    const { token } = await createApiKey(panel.db, user.id, 'restricted', panel.clock.now(), allowed);
    return (ip: string) => panel.app.inject({ url: '/api/client/account', headers: { authorization: `Bearer ${token}` }, remoteAddress: ip });
  };

  test('are enforced on every request: single addresses and CIDR ranges, IPv4 and IPv6', async ({ panel }) => {
    const from = await keyFor(panel, ['203.0.113.7', '10.1.0.0/16', '2001:db8::/32']);
    for (const ip of ['203.0.113.7', '10.1.200.3', '::ffff:10.1.0.1', '2001:db8:1::5']) expect((await from(ip)).statusCode).toBe(200);
    for (const ip of ['203.0.113.8', '10.2.0.1', '2001:db9::1', '127.0.0.1']) {
      const res = await from(ip);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        errors: [
          {
            code: 'AccessDeniedHttpException',
            status: '403',
            detail: `This IP address (${ip}) does not have permission to access the API using these credentials.`,
          },
        ],
      });
    }
  });

  test('allow every address when the list is empty', async ({ panel }) => {
    expect((await (await keyFor(panel, []))('198.51.100.1')).statusCode).toBe(200);
  });

  test('refuse to be created with an entry that is not an address or range', async ({ panel }) => {
    await expect(keyFor(panel, ['10.0.0.0/33'])).rejects.toThrow(/not an IP address or CIDR range/);
  });
});
