import { describe, expect } from 'vitest';
import { checkpoint, codeAt, CookieJar, login, PASSWORD, postJson } from '../test/auth-support';
import { test } from '../test/fixtures';

const throttled = {
  errors: [
    {
      code: 'ThrottleRequestsException',
      status: '429',
      detail: expect.stringMatching(/^Too many login attempts\. Please try again in \d+ seconds\.$/),
    },
  ],
};

const it = test
  /** Ten attempts from one address, each naming a different unknown account. */
  .extend('exhaustAddress', async ({ panel }) => async (ip: string): Promise<void> => {
    for (let i = 0; i < 10; i += 1) {
      const res = await postJson(panel, '/auth/login', { user: `ghost${i}`, password: 'x' }, undefined, ip);
      expect(res.statusCode).toBe(400);
    }
  });

describe('per-address throttle (one client cannot lock everyone out)', () => {
  it('answers 429 with Retry-After after ten attempts from one address', async ({ panel, exhaustAddress }) => {
    await exhaustAddress('10.0.0.1');
    const res = await postJson(panel, '/auth/login', { user: 'ghost', password: 'x' }, undefined, '10.0.0.1');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(throttled);
    expect(res.headers['retry-after']).toBe('60');
  });

  it('still lets another address log in and complete 2FA', async ({ panel, exhaustAddress }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    await exhaustAddress('10.0.0.1');
    const jar = new CookieJar();
    const first = await login(panel, jar, 'alice', PASSWORD, '10.0.0.2');
    const token: string = first.json().data.confirmation_token;
    const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) }, '10.0.0.2');
    expect(res.statusCode).toBe(200);
  });

  it('is not bypassed by a spoofed X-Forwarded-For', async ({ panel, exhaustAddress }) => {
    await exhaustAddress('10.0.0.1');
    const res = await panel.app.inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { user: 'ghost', password: 'x' },
    });
    expect(res.statusCode).toBe(429);
  });

  it('counts checkpoint attempts in the same bucket', async ({ panel, exhaustAddress }) => {
    await exhaustAddress('10.0.0.1');
    const res = await postJson(panel, '/auth/login/checkpoint', { confirmation_token: 'x', authentication_code: '123456' }, undefined, '10.0.0.1');
    expect(res.statusCode).toBe(429);
  });

  it('opens again once the window has passed', async ({ panel, exhaustAddress }) => {
    await panel.user({ username: 'alice' });
    await exhaustAddress('10.0.0.1');
    panel.clock.advance(60_000);
    const res = await login(panel, new CookieJar(), 'alice', PASSWORD, '10.0.0.1');
    expect(res.statusCode).toBe(200);
  });
});

describe('per-account throttle', () => {
  it('follows the account across addresses', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    for (let i = 1; i <= 5; i += 1) {
      expect((await postJson(panel, '/auth/login', { user: 'alice', password: 'wrong' }, undefined, `10.0.1.${i}`)).statusCode).toBe(400);
    }
    const res = await login(panel, new CookieJar(), 'ALICE', PASSWORD, '10.0.1.6');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(throttled);
    expect(res.cookies).toEqual([]);
  });

  it('locks an unknown account exactly like a known one', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const answers = [];
    for (const name of ['alice', 'nobody']) {
      for (let i = 1; i <= 5; i += 1) await postJson(panel, '/auth/login', { user: name, password: 'wrong' }, undefined, `10.${name.length}.0.${i}`);
      const res = await postJson(panel, '/auth/login', { user: name, password: 'wrong' }, undefined, `10.${name.length}.0.9`);
      answers.push({ status: res.statusCode, body: res.json(), retry: res.headers['retry-after'] });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(429);
  });

  it('is cleared by a successful login', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    let ip = 0;
    const attempt = (password: string) => postJson(panel, '/auth/login', { user: 'alice', password }, undefined, `10.0.2.${(ip += 1)}`);
    for (let i = 0; i < 4; i += 1) await attempt('wrong');
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) await attempt('wrong');
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
  });

  it('limits checkpoint guesses per account across addresses (no brute-forcing a code)', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    const jar = new CookieJar();
    const token: string = (await login(panel, jar, 'alice')).json().data.confirmation_token;
    const wrong = codeAt(panel, secret) === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i += 1) {
      const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: wrong }, `10.0.3.${i}`);
      expect(res.statusCode).toBe(400);
    }
    const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) }, '10.0.3.9');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
  });
});
