import { describe, expect } from 'vitest';
import { userEndpoints, userListSchema, userSchema } from '../../src/contract/users';
import { users } from '../db/repos';
import type { CliDeps } from '../cli/commands';
import { adminRoute, clientRoute, serverRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { cliFailure, cliRunner } from '../test/cli-support';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The application API's users and what opens the application API at all: a root admin's `ptla_`
 * key holding the resource, or a root admin's browser session; never a client key, never a user
 * who is not an admin, and an application key never opens the client API.
 */

const get = (panel: TestPanel, url: string, headers: Record<string, string>) => panel.app.inject({ url: `/api/application${url}`, headers });

describe('the application API: who gets in', () => {
  it('answers a root admin’s application key and session; a client key and no key are 401', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    expect((await get(panel, '/users', await panel.applicationHeaders(admin))).statusCode).toBe(200);
    expect((await get(panel, '/users', await panel.sessionHeaders(admin))).statusCode).toBe(200);
    for (const headers of [await panel.bearerHeaders(admin), {}, { authorization: 'Bearer ptla_nonsense' }]) {
      const res = await get(panel, '/users', headers);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ errors: [expect.objectContaining({ status: '401' })] });
    }
  });

  it('refuses an application key at the client API, and a user who is not an admin everywhere in it', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const appKey = await panel.applicationHeaders(admin);
    expect((await panel.app.inject({ url: '/api/client/account', headers: appKey })).statusCode).toBe(401);
    expect((await panel.app.inject({ url: '/api/client', headers: appKey })).statusCode).toBe(401);

    const user = await panel.user();
    for (const headers of [await panel.sessionHeaders(user), await panel.applicationHeaders(user)]) {
      const res = await get(panel, '/users', headers);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().errors[0].detail).toBe('This account does not have permission to access the API.');
      expect((await get(panel, `/users/${admin.id}`, headers)).statusCode).toBe(403);
    }
    // An admin demoted since making a key: the key opens nothing any more.
    await panel.db.updateTable('users').set({ root_admin: 0 }).where('id', '=', admin.id).execute();
    expect((await get(panel, '/users', appKey)).statusCode).toBe(403);
  });

  it('checks the key’s grant on the resource: none is 403, read is enough to read', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    expect((await get(panel, '/users', await panel.applicationHeaders(admin, { servers: 3 }))).statusCode).toBe(403);
    expect((await get(panel, '/users', await panel.applicationHeaders(admin, { users: 2 }))).statusCode).toBe(403);
    expect((await get(panel, '/users', await panel.applicationHeaders(admin, { users: 1 }))).statusCode).toBe(200);
  });

  it('limits each key to PANEL_API_APPLICATION_RATE_LIMIT requests a minute, apart from the client API', async ({ makePanel }) => {
    const panel = await makePanel({ apiApplicationRateLimit: 2, apiRateLimit: 0 });
    const admin = await panel.user({ admin: true });
    const [a, b] = [await panel.applicationHeaders(admin), await panel.applicationHeaders(admin)];
    expect((await get(panel, '/users', a)).statusCode).toBe(200);
    expect((await get(panel, '/users', a)).statusCode).toBe(200);
    const limited = await get(panel, '/users', a);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect((await get(panel, '/users', b)).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/client/account', headers: await panel.bearerHeaders(admin) })).statusCode).toBe(200);
  });
});

describe('application keys from the admin CLI', () => {
  const cli = (panel: TestPanel): CliDeps => ({
    db: panel.db,
    nodes: panel.nodes,
    clock: panel.clock,
    box: loadSecretBox(panel.dataDir),
    ports: panel.config.allocationPorts,
  });

  it('apikey:create --application makes a ptla_ key with the permissions named, for admins only', async ({ panel }) => {
    const admin = await panel.user({ admin: true, email: 'boss@example.com' });
    await panel.user({ email: 'user@example.com' });
    const [run, failure] = [cliRunner(cli(panel)), cliFailure(cli(panel))];

    const all = await run('apikey:create', '--email', 'boss@example.com', '--application');
    expect(all.token).toMatch(/^ptla_[A-Za-z0-9]{48}$/);
    expect(all.permissions).toMatchObject({ users: 'rw', servers: 'rw', nodes: 'rw', database_hosts: 'rw' });
    const auth = (token: unknown) => ({ authorization: `Bearer ${String(token)}` });
    expect((await get(panel, '/users', auth(all.token))).statusCode).toBe(200);

    const narrow = await run('apikey:create', '--email', 'boss@example.com', '--application', '--permissions', 'servers:r,nodes:rw');
    expect(narrow.permissions).toEqual({ servers: 'r', nodes: 'rw' });
    expect((await get(panel, '/users', auth(narrow.token))).statusCode).toBe(403);
    const client = await run('apikey:create', '--email', 'boss@example.com');
    expect(client.token).toMatch(/^ptlc_/);
    expect((await get(panel, '/users', auth(client.token))).statusCode).toBe(401);

    expect((await failure(['apikey:create', '--email', 'user@example.com', '--application'])).message).toMatch(/not an admin/);
    expect((await failure(['apikey:create', '--email', 'boss@example.com', '--application', '--permissions', 'users:x'])).exitCode).toBe(2);
    expect((await failure(['apikey:create', '--email', 'boss@example.com', '--application', '--permissions', 'secrets:r'])).exitCode).toBe(2);
    expect((await failure(['apikey:create', '--email', 'boss@example.com', '--permissions', 'users:r'])).exitCode).toBe(2);
    const listed = await run('apikey:list', '--email', 'boss@example.com', '--json');
    expect((listed.keys as { key_type: string }[]).map((k) => k.key_type).sort()).toEqual(['account', 'application', 'application']);
    // The account page lists and deletes client keys only.
    const page = await panel.app.inject({ url: '/api/client/account/api-keys', headers: await panel.sessionHeaders(admin) });
    expect(page.json().data.map((k: { attributes: { identifier: string } }) => k.attributes.identifier)).toEqual([
      expect.stringMatching(/^[A-Za-z0-9]{16}$/),
    ]);
    const appIdentifier = String(all.identifier);
    const session = await panel.sessionHeaders(admin);
    expect((await panel.app.inject({ method: 'DELETE', url: `/api/client/account/api-keys/${appIdentifier}`, headers: session })).statusCode).toBe(
      404,
    );
    expect((await get(panel, '/users', auth(all.token))).statusCode).toBe(200);
  });

  it('keeps admin endpoints to the admin route helper: the others refuse them when compiled', async ({ panel }) => {
    const misuse = () => {
      // @ts-expect-error an admin endpoint cannot be registered as a client route
      void clientRoute(panel.app, userEndpoints.list);
      // @ts-expect-error nor as a server route
      void serverRoute(panel.app, panel, userEndpoints.list);
    };
    expect(misuse).toBeTypeOf('function');
    expect(() => adminRoute(panel.app, { ...userEndpoints.view, path: '/api/client/users/:user' })).toThrow(/not an admin route/);
  });
});

describe('GET /api/application/users', () => {
  it('lists users in the reference’s shape, paged, filtered and sorted', async ({ panel }) => {
    const admin = await panel.user({ admin: true, email: 'boss@example.com' });
    const headers = await panel.applicationHeaders(admin);
    const alice = await panel.user({ email: 'alice@shop.example', username: 'alice' });
    await panel.user({ email: 'bob@example.com', username: 'bob' });
    await users.setExternalId(panel.db, alice.id, 'whmcs-42');

    const all = await get(panel, '/users?per_page=2', headers);
    expect(all.statusCode, all.body).toBe(200);
    const page = userListSchema.parse(all.json());
    expect(page.meta.pagination).toMatchObject({ total: 3, count: 2, per_page: 2, current_page: 1, total_pages: 2 });
    expect(page.meta.pagination.links).toEqual({ next: expect.stringMatching(/\/api\/application\/users\?per_page=2&page=2$/) });
    expect(page.data.map((u) => u.attributes.email)).toEqual(['boss@example.com', 'alice@shop.example']);
    expect(all.json().data[0].attributes).toEqual({
      id: admin.id,
      external_id: null,
      uuid: admin.uuid,
      username: admin.username,
      email: 'boss@example.com',
      first_name: 'Test',
      last_name: expect.stringMatching(/^User/),
      language: 'en',
      root_admin: true,
      '2fa': false,
      created_at: expect.stringMatching(/^2026-/),
      updated_at: expect.stringMatching(/^2026-/),
    });
    expect(JSON.stringify(all.json())).not.toMatch(/password|totp/);

    const shop = userListSchema.parse((await get(panel, '/users?filter[email]=shop.example', headers)).json());
    expect(shop.data.map((u) => u.attributes.username)).toEqual(['alice']);
    const byExternal = userListSchema.parse((await get(panel, '/users?filter[external_id]=whmcs', headers)).json());
    expect(byExternal.data.map((u) => u.attributes.external_id)).toEqual(['whmcs-42']);
    // LIKE's wildcards match themselves only.
    expect(userListSchema.parse((await get(panel, '/users?filter[email]=%25', headers)).json()).data).toEqual([]);
    const newest = userListSchema.parse((await get(panel, '/users?sort=-id', headers)).json());
    expect(newest.data.map((u) => u.attributes.username)[0]).toBe('bob');
  });

  it('refuses unknown filters and sorts and bad pages with the error document, changing nothing', async ({ panel }) => {
    const headers = await panel.applicationHeaders(await panel.user({ admin: true }));
    for (const query of ['filter[password]=x', 'sort=password', 'per_page=101', 'page=0']) {
      const res = await get(panel, `/users?${query}`, headers);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json()).toEqual({ errors: [expect.objectContaining({ status: String(res.statusCode), detail: expect.stringMatching(/\S/) })] });
    }
  });

  it('shows one user by id or external id; anything else is 404', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const headers = await panel.applicationHeaders(admin);
    const user = await panel.user();
    await users.setExternalId(panel.db, user.id, 'ext/1');
    expect(userSchema.parse((await get(panel, `/users/${user.id}`, headers)).json()).attributes.uuid).toBe(user.uuid);
    expect(userSchema.parse((await get(panel, '/users/external/ext%2F1', headers)).json()).attributes.id).toBe(user.id);
    for (const path of ['/users/999999', '/users/abc', `/users/${user.uuid}`, '/users/external/nope', '/users/1e3']) {
      const res = await get(panel, path, headers);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().errors[0].code).toBe('NotFoundHttpException');
    }
  });
});
