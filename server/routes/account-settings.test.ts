import { describe, expect } from 'vitest';
import { recoveryTokensSchema, twoFactorSetupSchema } from '../../src/contract';
import { checkpoint, codeAt, CookieJar, login, logout, PASSWORD } from '../test/auth-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

function send(panel: TestPanel, jar: CookieJar | Record<string, string>, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) {
  const headers = jar instanceof CookieJar ? jar.headers() : jar;
  return panel.app.inject({ method, url: `/api/client/account${url}`, headers, ...(payload ? { payload } : {}) });
}

async function signedIn(panel: TestPanel, login_: string, password = PASSWORD): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await login(panel, jar, login_, password);
  expect(res.statusCode).toBe(200);
  return jar;
}

async function events(panel: TestPanel, jar: CookieJar): Promise<{ event: string; properties: Record<string, unknown> }[]> {
  const res = await send(panel, jar, 'GET', '/activity');
  expect(res.statusCode).toBe(200);
  return res.json().data.map((d: { attributes: { event: string; properties: Record<string, unknown> } }) => d.attributes);
}

describe('PUT account/password', () => {
  it('changes the password, ends the other sessions and keeps this one', async ({ panel }) => {
    await panel.user({ username: 'ann' });
    const here = await signedIn(panel, 'ann');
    const elsewhere = await signedIn(panel, 'ann');
    const res = await send(panel, here, 'PUT', '/password', {
      current_password: PASSWORD,
      password: 'a new secret',
      password_confirmation: 'a new secret',
    });
    expect(res.statusCode).toBe(204);
    expect((await send(panel, here, 'GET', '')).statusCode).toBe(200);
    expect((await send(panel, elsewhere, 'GET', '')).statusCode).toBe(401);
    expect((await login(panel, new CookieJar(), 'ann')).statusCode).toBe(400);
    expect((await login(panel, new CookieJar(), 'ann', 'a new secret')).statusCode).toBe(200);
    expect((await events(panel, here)).map((e) => e.event)).toContain('user:account.password-changed');
  });

  it('refuses a wrong current password with 400 and changes nothing', async ({ panel }) => {
    await panel.user({ username: 'ann' });
    const jar = await signedIn(panel, 'ann');
    const other = await signedIn(panel, 'ann');
    const res = await send(panel, jar, 'PUT', '/password', {
      current_password: 'wrong one',
      password: 'a new secret',
      password_confirmation: 'a new secret',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      code: 'InvalidPasswordProvidedException',
      detail: 'The password provided was invalid for this account.',
    });
    // Checked before the rest is validated, as the reference panel: a missing one or one with a short new password is a 400 too.
    for (const body of [{ password: 'short' }, { current_password: 'wrong one', password: 'short', password_confirmation: 'other' }]) {
      const early = await send(panel, jar, 'PUT', '/password', body);
      expect(early.statusCode).toBe(400);
      expect(early.json().errors[0].code).toBe('InvalidPasswordProvidedException');
    }
    expect((await send(panel, other, 'GET', '')).statusCode).toBe(200);
    expect((await login(panel, new CookieJar(), 'ann')).statusCode).toBe(200);
  });

  it('answers 422 on the field for a short password or a mismatched confirmation', async ({ panel }) => {
    await panel.user({ username: 'ann' });
    const jar = await signedIn(panel, 'ann');
    const short = await send(panel, jar, 'PUT', '/password', { current_password: PASSWORD, password: 'short', password_confirmation: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors[0].source.field).toBe('password');
    const mismatch = await send(panel, jar, 'PUT', '/password', {
      current_password: PASSWORD,
      password: 'long enough',
      password_confirmation: 'long enougH',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors[0].source.field).toBe('password_confirmation');
    expect((await login(panel, new CookieJar(), 'ann')).statusCode).toBe(200);
  });

  it('over a bearer key ends every browser session', async ({ panel }) => {
    const user = await panel.user({ username: 'ann' });
    const jar = await signedIn(panel, 'ann');
    const res = await send(panel, await panel.bearerHeaders(user), 'PUT', '/password', {
      current_password: PASSWORD,
      password: 'a new secret',
      password_confirmation: 'a new secret',
    });
    expect(res.statusCode).toBe(204);
    expect((await send(panel, jar, 'GET', '')).statusCode).toBe(401);
  });

  it('locks out after five wrong passwords a minute', async ({ panel }) => {
    await panel.user({ username: 'ann' });
    const jar = await signedIn(panel, 'ann');
    const body = { current_password: 'wrong one', password: 'a new secret', password_confirmation: 'a new secret' };
    for (let i = 0; i < 5; i += 1) expect((await send(panel, jar, 'PUT', '/password', body)).statusCode).toBe(400);
    const locked = await send(panel, jar, 'PUT', '/password', { ...body, current_password: PASSWORD });
    expect(locked.statusCode).toBe(429);
  });

  it('answers 401 without credentials', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'PUT', url: '/api/client/account/password', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT account/email', () => {
  it('changes the e-mail with the password and records old and new', async ({ panel }) => {
    await panel.user({ username: 'ann', email: 'ann@example.com' });
    const jar = await signedIn(panel, 'ann');
    const res = await send(panel, jar, 'PUT', '/email', { email: 'anne@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(204);
    expect((await send(panel, jar, 'GET', '')).json().attributes.email).toBe('anne@example.com');
    const entry = (await events(panel, jar)).find((e) => e.event === 'user:account.email-changed');
    expect(entry?.properties).toEqual({ old: 'ann@example.com', new: 'anne@example.com' });
  });

  // attacks T-ENUM-1
  it('refuses a wrong password (400), a taken address (422, whoever holds it) and a malformed one (422)', async ({ panel }) => {
    await panel.user({ username: 'ann', email: 'ann@example.com' });
    await panel.user({ username: 'bob', email: 'bob@example.com' });
    const jar = await signedIn(panel, 'ann');
    const wrong = await send(panel, jar, 'PUT', '/email', { email: 'new@example.com', password: 'nope nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].code).toBe('InvalidPasswordProvidedException');
    expect((await send(panel, jar, 'PUT', '/email', { email: 'not an address', password: 'nope nope' })).statusCode).toBe(400);
    const taken = await send(panel, jar, 'PUT', '/email', { email: 'BOB@example.com', password: PASSWORD });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0]).toMatchObject({ detail: 'The email has already been taken.', source: { field: 'email' } });
    expect(JSON.stringify(taken.json())).not.toContain('bob');
    const bad = await send(panel, jar, 'PUT', '/email', { email: 'not an address', password: PASSWORD });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].source.field).toBe('email');
    expect((await send(panel, jar, 'GET', '')).json().attributes.email).toBe('ann@example.com');
  });
});

describe('two-factor', () => {
  // attacks T-AUTH-5, T-AUTH-4
  it('turns on with a right code only, and the recovery tokens work once at the checkpoint', async ({ panel }) => {
    await panel.user({ username: 'ann', email: 'ann@example.com' });
    const jar = await signedIn(panel, 'ann');
    const setup = await send(panel, jar, 'GET', '/two-factor');
    expect(setup.statusCode).toBe(200);
    const { secret, image_url_data } = twoFactorSetupSchema.parse(setup.json()).data;
    expect(image_url_data).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(image_url_data).toContain(secret);
    // The authenticator lists it under the panel's name (APP_NAME until an admin sets one).
    expect(new URL(image_url_data).searchParams.get('issuer')).toBe('Aerie');
    // Not active yet: sign-in needs no code.
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(true);

    const wrongCode = await send(panel, jar, 'POST', '/two-factor', { code: codeAt(panel, secret, 10), password: PASSWORD });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().errors[0].code).toBe('TwoFactorAuthenticationTokenInvalid');
    const wrongPassword = await send(panel, jar, 'POST', '/two-factor', { code: codeAt(panel, secret), password: 'nope nope' });
    expect(wrongPassword.statusCode).toBe(400);
    const badShape = await send(panel, jar, 'POST', '/two-factor', { code: 'abc', password: PASSWORD });
    expect(badShape.statusCode).toBe(422);
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(true);

    const elsewhere = await signedIn(panel, 'ann');
    const enablingCode = codeAt(panel, secret);
    const on = await send(panel, jar, 'POST', '/two-factor', { code: enablingCode, password: PASSWORD });
    expect(on.statusCode).toBe(200);
    // A session signed in without the second factor does not outlive it; this one stays.
    expect((await send(panel, elsewhere, 'GET', '')).statusCode).toBe(401);
    expect((await send(panel, jar, 'GET', '')).statusCode).toBe(200);
    const { tokens } = recoveryTokensSchema.parse(on.json()).attributes;
    expect(tokens).toHaveLength(10);
    // Stored hashed: ten rows, none holding a token.
    const stored = await panel.db.selectFrom('recovery_tokens').select('token_hash').execute();
    expect(stored).toHaveLength(10);
    for (const token of tokens) expect(JSON.stringify(stored)).not.toContain(token);
    expect((await send(panel, jar, 'GET', '/two-factor')).statusCode).toBe(400);

    // Sign in again: a code is asked for (not the one that turned it on), a recovery token passes once.
    await logout(panel, jar);
    const other = new CookieJar();
    const first = await login(panel, other, 'ann');
    const confirmation_token = first.json().data.confirmation_token as string;
    expect((await checkpoint(panel, other, { confirmation_token, authentication_code: enablingCode })).statusCode).toBe(400);
    expect((await checkpoint(panel, other, { confirmation_token, recovery_token: tokens[0] ?? '' })).statusCode).toBe(200);
    const again = new CookieJar();
    const second = (await login(panel, again, 'ann')).json().data.confirmation_token as string;
    expect((await checkpoint(panel, again, { confirmation_token: second, recovery_token: tokens[0] ?? '' })).statusCode).toBe(400);
    const byCode = await checkpoint(panel, again, { confirmation_token: second, authentication_code: codeAt(panel, secret, 1) });
    expect(byCode.statusCode).toBe(200);

    const names = (await events(panel, other)).map((e) => e.event);
    expect(names).toContain('user:two-factor.create');
  });

  // attacks T-AUTH-5
  it('turns off with the password only', async ({ panel }) => {
    const user = await panel.user({ username: 'ann' });
    await panel.enableTotp(user);
    const headers = await panel.sessionHeaders(user);
    expect((await send(panel, headers, 'POST', '/two-factor/disable', { password: 'nope nope' })).statusCode).toBe(400);
    expect((await send(panel, headers, 'POST', '/two-factor/disable', {})).statusCode).toBe(422);
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(false);
    expect((await send(panel, headers, 'POST', '/two-factor/disable', { password: PASSWORD })).statusCode).toBe(204);
    expect((await login(panel, new CookieJar(), 'ann')).json().data.complete).toBe(true);
    const list = await send(panel, headers, 'GET', '/activity');
    expect(list.json().data.map((d: { attributes: { event: string } }) => d.attributes.event)).toContain('user:two-factor.delete');
  });
});

describe('GET account/activity', () => {
  // attacks T-LEAK-1 (account activity: the caller's own only)
  it('lists only the caller’s own entries, paginated, filterable and sortable', async ({ panel }) => {
    const ann = await panel.user({ username: 'ann' });
    const bob = await panel.user({ username: 'bob' });
    const annKey = await panel.bearerHeaders(ann);
    const bobKey = await panel.bearerHeaders(bob);
    const made: string[] = [];
    for (const description of ['one', 'two', 'three']) {
      panel.clock.advance(60_000);
      const res = await send(panel, annKey, 'POST', '/api-keys', { description });
      expect(res.statusCode).toBe(200);
      made.push(res.json().attributes.identifier as string);
    }
    expect((await send(panel, bobKey, 'POST', '/api-keys', { description: 'bob' })).statusCode).toBe(200);
    const page = await send(panel, annKey, 'GET', '/activity?per_page=2&filter[event]=user:api-key.create&sort=timestamp');
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.meta.pagination).toMatchObject({ total: 3, per_page: 2, total_pages: 2 });
    expect(body.data).toHaveLength(2);
    const mine = (await send(panel, annKey, 'GET', '/activity?per_page=100')).json();
    const keys = (await send(panel, bobKey, 'GET', '/api-keys'))
      .json()
      .data.map((k: { attributes: { identifier: string } }) => k.attributes.identifier);
    expect(JSON.stringify(mine)).not.toContain(keys[keys.length - 1]);
    expect((await send(panel, annKey, 'GET', '/activity?filter[nope]=x')).statusCode).toBe(400);

    // Newest first unless sort=timestamp asks for the oldest first; another sort is a 422 on sort.
    const order = async (query: string) =>
      (await send(panel, annKey, 'GET', `/activity?filter[event]=user:api-key.create${query}`))
        .json()
        .data.map((d: { attributes: { properties: { identifier: string } } }) => d.attributes.properties.identifier);
    expect(await order('')).toEqual([...made].reverse());
    expect(await order('&sort=-timestamp')).toEqual([...made].reverse());
    expect(await order('&sort=timestamp')).toEqual(made);
    const badSort = await send(panel, annKey, 'GET', '/activity?sort=event');
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json().errors[0].source).toEqual({ field: 'sort' });
  });
});
