import { describe, expect } from 'vitest';
import { databaseHostListSchema, databaseHostSchema } from '../../src/contract/admin-database-hosts';
import { databaseHosts } from '../db/repos';
import { test } from '../test/fixtures';
import { useTestMariadb } from '../test/mariadb';
import type { TestPanel } from '../test/harness';

/*
 * Database hosts in the application API against a real MariaDB: a host is saved only after it
 * answered with the account given, a refusal says what MariaDB meant, the password never comes
 * back, a host holding databases is not deleted; who may do what.
 */

const mariadb = useTestMariadb();
const URL = '/api/application/database-hosts';

const it = test.extend('setup', async ({ panel }) => {
  const admin = await panel.user({ admin: true });
  const session = await panel.sessionHeaders(admin);
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path = '', payload?: object, headers: Record<string, string> = session) =>
    panel.app.inject({ method, url: `${URL}${path}`, headers, ...(payload ? { payload } : {}) });
  return { admin, session, call };
});

const body = (access: ReturnType<ReturnType<typeof useTestMariadb>>, extra: object = {}) => ({
  name: 'main',
  host: access.host,
  port: access.port,
  username: access.username,
  password: access.password,
  max_databases: 20,
  ...extra,
});

const hostCount = async (panel: TestPanel) => (await databaseHosts.all(panel.db)).length;

describe('database hosts in the application API', () => {
  it('adds a host after connecting to it, lists it with usage, never returns the password', async ({ panel, setup }) => {
    const access = mariadb();
    const created = await setup.call('POST', '', body(access));
    expect(created.statusCode, created.body).toBe(201);
    const host = databaseHostSchema.parse(created.json()).attributes;
    expect(host).toMatchObject({ name: 'main', host: access.host, port: access.port, max_databases: 20, databases: 0, node: null });
    expect(created.body).not.toContain(access.password);

    const listed = await setup.call('GET');
    expect(listed.statusCode).toBe(200);
    const list = databaseHostListSchema.parse(listed.json());
    expect(list.data.map((d) => d.attributes.name)).toEqual(['main']);
    expect(listed.body).not.toContain(access.password);
    expect((await setup.call('POST', `/${host.id}/test`)).statusCode).toBe(200);

    const activity = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).execute();
    expect(activity.map((a) => a.event)).toContain('admin:database-host.create');
    expect(JSON.stringify(activity)).not.toContain(access.password);
  });

  it('refuses a wrong password with what MariaDB meant, and saves nothing', async ({ panel, setup }) => {
    const access = mariadb();
    const res = await setup.call('POST', '', body(access, { password: 'wrong-password' }));
    expect(res.statusCode, res.body).toBe(400);
    const detail = res.json().errors[0].detail as string;
    expect(detail).toBe(`${access.host}:${access.port} refused the username or password (${access.username}).`);
    expect(res.body).not.toContain('wrong-password');
    expect(await hostCount(panel)).toBe(0);
  });

  it('refuses a port nothing listens on as unreachable', async ({ panel, setup }) => {
    const res = await setup.call('POST', '', body({ ...mariadb(), port: 1 }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].detail).toMatch(/^Nothing accepts connections at .*:1/);
    expect(await hostCount(panel)).toBe(0);
  });

  it('validates the body with field errors (422) and refuses a taken name or an unknown node', async ({ panel, setup }) => {
    const bad = await setup.call('POST', '', { name: 'bad name!', host: '', port: 70000, username: '', password: 5 });
    expect(bad.statusCode).toBe(422);
    const fields = (bad.json().errors as { meta: { source_field: string } }[]).map((e) => e.meta.source_field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'host', 'port', 'username', 'password']));
    expect((await setup.call('POST', '', body(mariadb(), { node: 999 }))).statusCode).toBe(422);
    expect((await setup.call('POST', '', body(mariadb()))).statusCode).toBe(201);
    const taken = await setup.call('POST', '', body(mariadb()));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors[0].meta.source_field).toBe('name');
    expect(await hostCount(panel)).toBe(1);
  });

  it('edits a host, keeping the stored password when none is given, and checks a new one first', async ({ panel, setup }) => {
    const id = databaseHostSchema.parse((await setup.call('POST', '', body(mariadb()))).json()).attributes.id;
    const renamed = await setup.call('PATCH', `/${id}`, { name: 'renamed', max_databases: null });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().attributes).toMatchObject({ name: 'renamed', max_databases: null });
    expect((await setup.call('POST', `/${id}/test`)).statusCode).toBe(200);
    const before = await databaseHosts.findById(panel.db, id);
    const wrong = await setup.call('PATCH', `/${id}`, { password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(await databaseHosts.findById(panel.db, id)).toEqual(before);
  });

  it('refuses to delete a host holding databases, saying how many; deletes an empty one', async ({ panel, setup }) => {
    const id = databaseHostSchema.parse((await setup.call('POST', '', body(mariadb()))).json()).attributes.id;
    const server = await panel.server(await panel.user());
    const now = panel.clock.now().toISOString();
    for (const name of ['s1_a', 's1_b']) {
      await panel.db
        .insertInto('databases')
        .values({
          server_id: server.id,
          database_host_id: id,
          database: name,
          username: `u_${name}`,
          remote: '%',
          password: 'x',
          max_connections: 10,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const refused = await setup.call('DELETE', `/${id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].detail).toBe('This database host still holds 2 databases: delete them first.');
    expect((await setup.call('GET', `/${id}`)).json().attributes.databases).toBe(2);
    await panel.db.deleteFrom('databases').execute();
    expect((await setup.call('DELETE', `/${id}`)).statusCode).toBe(204);
    expect((await setup.call('GET', `/${id}`)).statusCode).toBe(404);
  });

  it('lets only root admins in: a key needs the database_hosts grant, a read-only key cannot write', async ({ panel, setup }) => {
    const user = await panel.user();
    const access = mariadb();
    expect((await setup.call('GET', '', undefined, await panel.sessionHeaders(user))).statusCode).toBe(403);
    expect((await setup.call('POST', '', body(access), await panel.sessionHeaders(user))).statusCode).toBe(403);
    expect((await setup.call('GET', '', undefined, await panel.bearerHeaders(setup.admin))).statusCode).toBe(401);
    expect((await setup.call('GET', '', undefined, await panel.applicationHeaders(setup.admin, { servers: 3 }))).statusCode).toBe(403);
    const readOnly = await panel.applicationHeaders(setup.admin, { database_hosts: 1 });
    expect((await setup.call('GET', '', undefined, readOnly)).statusCode).toBe(200);
    expect((await setup.call('POST', '', body(access), readOnly)).statusCode).toBe(403);
    const { 'x-xsrf-token': _csrf, ...noCsrf } = setup.session;
    expect((await setup.call('POST', '', body(access), noCsrf)).statusCode).toBe(419);
    expect(await hostCount(panel)).toBe(0);
    const readWrite = await panel.applicationHeaders(setup.admin, { database_hosts: 3 });
    expect((await setup.call('POST', '', body(access), readWrite)).statusCode).toBe(201);
  });
});
