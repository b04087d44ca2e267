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

// attacks T-RL-2
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

describe('lock-out per account and client address', () => {
  it('locks an account out only at the address that failed, however long that address keeps at it', async ({ panel }) => {
    await panel.user({ username: 'root', email: 'root@example.com', admin: true });
    // Twelve minutes of five wrong passwords a minute from one address: all it is allowed.
    for (let minute = 0; minute < 12; minute += 1) {
      for (let i = 0; i < 5; i += 1) {
        expect((await postJson(panel, '/auth/login', { user: 'root', password: 'wrong' }, undefined, '10.0.1.66')).statusCode).toBe(400);
      }
      expect((await postJson(panel, '/auth/login', { user: 'root', password: 'wrong' }, undefined, '10.0.1.66')).statusCode).toBe(429);
      panel.clock.advance(60_000);
    }
    expect((await login(panel, new CookieJar(), 'root', PASSWORD, '10.0.1.1')).statusCode).toBe(200);
    expect((await login(panel, new CookieJar(), 'root@example.com', PASSWORD, '10.0.1.2')).statusCode).toBe(200);
  });

  it('answers 429 with the throttle document and no cookie once an address failed five times', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    for (let i = 0; i < 5; i += 1) await postJson(panel, '/auth/login', { user: 'alice', password: 'wrong' }, undefined, '10.0.1.5');
    const res = await login(panel, new CookieJar(), 'alice', PASSWORD, '10.0.1.5');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(throttled);
    expect(res.cookies).toEqual([]);
  });

  it("counts an account's e-mail and username as one", async ({ panel }) => {
    await panel.user({ username: 'alice', email: 'alice@example.com' });
    for (const typed of ['alice', 'alice', 'ALICE@example.com', 'alice@example.com', 'alice']) {
      expect((await postJson(panel, '/auth/login', { user: typed, password: 'wrong' }, undefined, '10.0.1.7')).statusCode).toBe(400);
    }
    expect((await login(panel, new CookieJar(), 'alice@example.com', PASSWORD, '10.0.1.7')).statusCode).toBe(429);
  });

  it('locks an unknown account exactly like a known one', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const answers = [];
    for (const name of ['alice', 'nobody']) {
      const ip = `10.${name.length}.0.1`;
      for (let i = 1; i <= 5; i += 1) await postJson(panel, '/auth/login', { user: name, password: 'wrong' }, undefined, ip);
      const res = await postJson(panel, '/auth/login', { user: name, password: 'wrong' }, undefined, ip);
      answers.push({ status: res.statusCode, body: res.json(), retry: res.headers['retry-after'] });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(429);
  });

  it('is cleared by a successful login', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const attempt = (password: string) => postJson(panel, '/auth/login', { user: 'alice', password }, undefined, '10.0.2.1');
    for (let i = 0; i < 4; i += 1) await attempt('wrong');
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    panel.clock.advance(60_000); // the address's own limit of ten attempts a minute is not what is tested
    for (let i = 0; i < 4; i += 1) await attempt('wrong');
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
  });

  it('has a loose backstop per account: a hundred failures from many addresses in ten minutes', async ({ panel }) => {
    await panel.user({ username: 'alice' });
    const fail = (n: number) => postJson(panel, '/auth/login', { user: 'alice', password: 'wrong' }, undefined, `10.9.${Math.floor(n / 4)}.1`);
    for (let n = 0; n < 99; n += 1) expect((await fail(n)).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'alice', PASSWORD, '10.0.4.1')).statusCode).toBe(200);
    expect((await fail(99)).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'alice', PASSWORD, '10.0.4.2')).statusCode).toBe(429);
  });

  // attacks T-RL-1
  it('counts wrong checkpoint codes per account and address too', async ({ panel }) => {
    const user = await panel.user({ username: 'alice' });
    const { secret } = await panel.enableTotp(user);
    const wrong = codeAt(panel, secret) === '000000' ? '111111' : '000000';
    const jar = new CookieJar();
    const token: string = (await login(panel, jar, 'alice', PASSWORD, '10.0.3.1')).json().data.confirmation_token;
    for (let i = 1; i <= 5; i += 1) {
      const res = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: wrong }, '10.0.3.1');
      expect(res.statusCode).toBe(400);
    }
    const here = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) }, '10.0.3.1');
    expect(here.statusCode).toBe(429);
    expect(here.headers['retry-after']).toBe('60');
    // The same failures lock the password step at that address, and nowhere else.
    expect((await login(panel, new CookieJar(), 'alice', PASSWORD, '10.0.3.1')).statusCode).toBe(429);
    const elsewhere = await checkpoint(panel, jar, { confirmation_token: token, authentication_code: codeAt(panel, secret) }, '10.0.3.2');
    expect(elsewhere.statusCode).toBe(200);
  });
});
