import { describe, expect } from 'vitest';
import { applicationKeyCreatedSchema, applicationKeyListSchema } from '../../src/contract/admin-api-keys';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The admin area's application keys: a root admin's session makes, lists and revokes their own
 * `ptla_` keys with per-resource grants that then hold at the application API; keys and other
 * users get nowhere, client keys never show.
 */

const URL = '/api/application/api-keys';
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'DELETE', headers: Record<string, string>, path = '', payload?: object) =>
  panel.app.inject({ method, url: `${URL}${path}`, headers, ...(payload ? { payload } : {}) });
const keyCount = async (panel: TestPanel) =>
  (await panel.db.selectFrom('api_keys').select('id').where('key_type', '=', 'application').execute()).length;

describe('application keys in the admin area', () => {
  it('creates a key whose secret is shown once and whose grants hold, lists it, revokes it', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const session = await panel.sessionHeaders(admin);
    await panel.bearerHeaders(admin); // a client key of the same admin: never listed here
    const res = await call(panel, 'POST', session, '', { description: 'billing', permissions: { servers: 'r', users: 'none' } });
    expect(res.statusCode, res.body).toBe(201);
    const created = applicationKeyCreatedSchema.parse(res.json());
    expect(created.meta.secret_token).toMatch(/^ptla_/);
    expect(created.attributes.permissions).toEqual({ servers: 'r' });

    const listed = applicationKeyListSchema.parse((await call(panel, 'GET', session)).json());
    expect(listed.data.map((k) => k.attributes)).toEqual([
      expect.objectContaining({ identifier: created.attributes.identifier, permissions: { servers: 'r' } }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.meta.secret_token);

    const key = { authorization: `Bearer ${created.meta.secret_token}` };
    expect((await panel.app.inject({ url: '/api/application/servers', headers: key })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/application/users', headers: key })).statusCode).toBe(403);
    expect((await panel.app.inject({ method: 'POST', url: '/api/application/servers', headers: key, payload: {} })).statusCode).toBe(403);

    expect((await call(panel, 'DELETE', session, `/${created.attributes.identifier}`)).statusCode).toBe(204);
    expect((await panel.app.inject({ url: '/api/application/servers', headers: key })).statusCode).toBe(401);
    const events = (await panel.db.selectFrom('activity_logs').select('event').execute()).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['admin:api-key.create', 'admin:api-key.delete']));
  });

  it('validates the body (422 with the field) and makes nothing', async ({ panel }) => {
    const session = await panel.sessionHeaders(await panel.user({ admin: true }));
    for (const [payload, field] of [
      [{ description: '', permissions: {} }, 'description'],
      [{ description: 'x', permissions: { everything: 'rw' } }, 'permissions'],
      [{ description: 'x', permissions: { servers: 'all' } }, 'permissions.servers'],
      [{ description: 'x', permissions: {}, allowed_ips: ['not-an-ip'] }, 'allowed_ips.0'],
    ] as const) {
      const res = await call(panel, 'POST', session, '', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors.map((e: { meta: { source_field: string } }) => e.meta.source_field)).toContain(field);
    }
    expect(await keyCount(panel)).toBe(0);
  });

  it('opens to a root admin’s session only: not to any key, not to other users; another admin’s key is 404', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const other = await panel.user({ admin: true });
    const otherKey = applicationKeyCreatedSchema.parse(
      (await call(panel, 'POST', await panel.sessionHeaders(other), '', { description: 'theirs', permissions: { users: 'rw' } })).json(),
    );
    const payload = { description: 'x', permissions: { users: 'rw' } };
    expect((await call(panel, 'GET', await panel.applicationHeaders(admin))).statusCode).toBe(403);
    expect((await call(panel, 'POST', await panel.applicationHeaders(admin), '', payload)).statusCode).toBe(403);
    expect((await call(panel, 'GET', await panel.bearerHeaders(admin))).statusCode).toBe(401);
    const user = await panel.user();
    expect((await call(panel, 'POST', await panel.sessionHeaders(user), '', payload)).statusCode).toBe(403);
    const { 'x-xsrf-token': _csrf, ...noCsrf } = await panel.sessionHeaders(admin);
    expect((await call(panel, 'POST', noCsrf, '', payload)).statusCode).toBe(419);
    const session = await panel.sessionHeaders(admin);
    expect((await call(panel, 'DELETE', session, `/${otherKey.attributes.identifier}`)).statusCode).toBe(404);
    const mine = applicationKeyListSchema.parse((await call(panel, 'GET', session)).json()).data.map((k) => k.attributes.description);
    // The two the harness made for the checks above; not the other admin's.
    expect(mine).toEqual(['billing', 'billing']);
    expect(await keyCount(panel)).toBe(3);
  });
});
