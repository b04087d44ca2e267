import { describe, expect } from 'vitest';
import { accountSchema, PERMISSION_GROUPS, systemPermissionsSchema } from '../../src/contract';
import { it } from '../test/fixtures';

describe('account and permission catalogue', () => {
  it('returns the signed-in account', async ({ panel }) => {
    const user = await panel.user({ email: 'ann@example.com', username: 'ann' });
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: await panel.sessionHeaders(user) });
    expect(res.statusCode).toBe(200);
    expect(accountSchema.parse(res.json())).toEqual({
      object: 'user',
      attributes: {
        id: user.id,
        admin: false,
        username: 'ann',
        email: 'ann@example.com',
        first_name: 'Test',
        last_name: user.name_last,
        language: 'en',
        use_totp: false,
        theme: 'system',
      },
    });
  });

  it('reports a root admin as admin, also over a bearer key', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/account', headers: await panel.bearerHeaders(admin) });
    expect(res.statusCode).toBe(200);
    expect(accountSchema.parse(res.json()).attributes.admin).toBe(true);
  });

  it('answers 401 for the account without credentials', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/account' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AuthenticationException');
  });

  it('describes every permission group and key in spec order', async ({ panel }) => {
    const user = await panel.user();
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/permissions', headers: await panel.bearerHeaders(user) });
    expect(res.statusCode).toBe(200);
    const { permissions } = systemPermissionsSchema.parse(res.json()).attributes;
    expect(Object.keys(permissions)).toEqual(Object.keys(PERMISSION_GROUPS));
    for (const [group, values] of Object.entries(PERMISSION_GROUPS)) {
      const entry = permissions[group];
      expect(entry?.description).toMatch(/\S/);
      expect(Object.keys(entry?.keys ?? {}).map((k) => `${group}.${k}`)).toEqual(values);
      for (const text of Object.values(entry?.keys ?? {})) expect(text).toMatch(/\S/);
    }
  });

  it('answers 401 for the permission catalogue without credentials', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/permissions' });
    expect(res.statusCode).toBe(401);
  });
});
