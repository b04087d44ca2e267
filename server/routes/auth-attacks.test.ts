import { describe, expect } from 'vitest';
import { CookieJar, login, PASSWORD } from '../test/auth-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * Red-team pass on sign-in, two-factor, sessions, CSRF, API keys and the account (issue 12): the
 * attacks of the catalogue's rows T-AUTH-*, T-RL-*, T-ENUM-1, T-CSRF-*, T-SESS-*, T-LFI-1 that no
 * other test covers, and a few beyond it. Each test names the row it attacks.
 */

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
