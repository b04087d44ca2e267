import { describe, expect } from 'vitest';
import { accountSchema } from '../../src/contract';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import type { UserRow } from '../db/schema';

const put = (panel: TestPanel, headers: Record<string, string>, payload: object) =>
  panel.app.inject({ method: 'PUT', url: '/api/client/account/preferences', headers, payload });

async function account(panel: TestPanel, user: UserRow) {
  const res = await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: await panel.bearerHeaders(user) });
  expect(res.statusCode).toBe(200);
  return accountSchema.parse(res.json()).attributes;
}

async function events(panel: TestPanel, user: UserRow) {
  const res = await panel.app.inject({ method: 'GET', url: '/api/client/account/activity', headers: await panel.bearerHeaders(user) });
  return (res.json().data as { attributes: { event: string; properties: Record<string, unknown> } }[]).map((d) => d.attributes);
}

describe('PUT account/preferences', () => {
  it('stores the theme and the language, shows them on the account and logs what changed', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    expect((await put(panel, headers, { theme: 'light' })).statusCode).toBe(204);
    expect(await account(panel, user)).toMatchObject({ theme: 'light', language: 'en' });
    expect((await put(panel, headers, { theme: 'dark', language: 'pt-BR' })).statusCode).toBe(204);
    expect(await account(panel, user)).toMatchObject({ theme: 'dark', language: 'pt-BR' });
    expect((await put(panel, headers, { language: 'de' })).statusCode).toBe(204);
    expect(await account(panel, user)).toMatchObject({ theme: 'dark', language: 'de' });
    const logged = (await events(panel, user)).filter((e) => e.event === 'user:account.preferences-changed');
    expect(logged.map((e) => e.properties)).toEqual([{ language: 'de' }, { theme: 'dark', language: 'pt-BR' }, { theme: 'light' }]);
  });

  it('logs nothing when the choice is the one already stored', async ({ panel }) => {
    const user = await panel.user();
    expect((await put(panel, await panel.sessionHeaders(user), { theme: 'system', language: 'en' })).statusCode).toBe(204);
    expect((await events(panel, user)).map((e) => e.event)).not.toContain('user:account.preferences-changed');
  });

  it('refuses an unknown theme, language or field, or an empty body, with 422 and changes nothing', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.sessionHeaders(user);
    const cases: [object, string][] = [
      [{ theme: 'sepia' }, 'theme'],
      [{ theme: 'light', language: 'xx' }, 'language'],
      [{ theme: 'light', colour: 'blue' }, 'body'],
      [{}, 'body'],
      [{ theme: null }, 'theme'],
    ];
    for (const [body, field] of cases) {
      const res = await put(panel, headers, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field } });
    }
    expect(await account(panel, user)).toMatchObject({ theme: 'system', language: 'en' });
  });

  it('answers 401 without credentials', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'PUT', url: '/api/client/account/preferences', payload: { theme: 'light' } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a cookie-signed request without the CSRF token or from a foreign origin, and changes nothing', async ({ panel }) => {
    const user = await panel.user();
    const { cookie = '' } = await panel.sessionHeaders(user);
    const variants: Record<string, string>[] = [
      { cookie },
      { cookie, 'x-xsrf-token': 'forged' },
      { cookie, origin: 'https://evil.example', referer: 'https://evil.example/' },
    ];
    for (const headers of variants) {
      expect([403, 419]).toContain((await put(panel, headers, { theme: 'light' })).statusCode);
    }
    expect((await account(panel, user)).theme).toBe('system');
  });

  it('takes the change over an API key too', async ({ panel }) => {
    const user = await panel.user();
    expect((await put(panel, await panel.bearerHeaders(user), { theme: 'light' })).statusCode).toBe(204);
    expect((await account(panel, user)).theme).toBe('light');
  });
});
