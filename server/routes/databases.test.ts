import mysql from 'mysql2/promise';
import { describe, expect } from 'vitest';
import type { ServerRow } from '../db/schema';
import { loadSecretBox } from '../lib/secret-box';
import { saveHost, withHost, type HostAccess } from '../services/database-hosts';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { useTestMariadb } from '../test/mariadb';
import { randomAlnum } from '../lib/crypto';

/*
 * The databases API against a real MariaDB: every database it lists exists on the host and takes
 * its credentials; rotate and delete change the host first; permissions, limits, bad names, 404
 * across servers, a host that fails (503, nothing changed) and the activity entries.
 */

const mariadb = useTestMariadb();

type Method = 'GET' | 'POST' | 'DELETE';

interface DatabaseJson {
  object: 'server_database';
  attributes: {
    id: string;
    host: { address: string; port: number };
    name: string;
    username: string;
    connections_from: string;
    max_connections: number;
    relationships?: { password: { object: string; attributes: { password: string } | null } };
  };
}

async function onHost(serverId: number): Promise<{ databases: string[]; users: string[] }> {
  return withHost(mariadb(), async (conn) => {
    const [dbs] = await conn.query<mysql.RowDataPacket[]>('SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [
      `s${serverId}\\_%`,
    ]);
    const [users] = await conn.query<mysql.RowDataPacket[]>('SELECT User AS n FROM mysql.user WHERE User LIKE ?', [`u${serverId}\\_%`]);
    return { databases: dbs.map((r) => String(r.n)), users: users.map((r) => String(r.n)) };
  });
}

// Servers of every test panel count from 1 and share the instance: each test drops what it left.
async function dropAll(serverIds: number[]): Promise<void> {
  for (const id of serverIds) {
    const { databases, users } = await onHost(id);
    await withHost(mariadb(), async (conn) => {
      for (const name of databases) await conn.query('DROP DATABASE ??', [name]);
      for (const user of users) await conn.query('DROP USER ?@?', [user, '%']);
    });
  }
}

async function setup(panel: TestPanel, host: HostAccess | null) {
  if (host) await saveHost(panel.db, loadSecretBox(panel.dataDir), { name: 'default', ...host }, panel.clock.now());
  const owner = await panel.user();
  const server = await panel.server(owner);
  const headers = await panel.bearerHeaders(owner);
  const call = (method: Method, path = '', payload?: object, as = headers, target: ServerRow = server) =>
    panel.app.inject({ method, url: `/api/client/servers/${target.uuid}/databases${path}`, headers: as, ...(payload ? { payload } : {}) });
  const events = async () =>
    (
      await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', 'like', 'server:database.%').orderBy('id').execute()
    ).map((r) => ({ event: r.event, properties: JSON.parse(r.properties) as unknown }));
  return { owner, server, headers, call, events };
}

const it = test.extend('dbs', async ({ panel }, { onCleanup }) => {
  const made = await setup(panel, mariadb());
  onCleanup(() => dropAll([made.server.id]));
  return made;
});

// Unique per test, since every panel's first server is s1.
const uniqueName = (prefix: string) => `${prefix}_${randomAlnum(8)}`;

describe('server databases on a real MariaDB', () => {
  it('creates a database whose credentials work on the host, and lists it with the password only on request', async ({ dbs }) => {
    const name = uniqueName('map');
    const res = await dbs.call('POST', '', { database: name, remote: '%' });
    expect(res.statusCode).toBe(200);
    const created = res.json() as DatabaseJson;
    const { address, port } = created.attributes.host;
    expect(created.attributes).toMatchObject({
      name: `s${dbs.server.id}_${name}`,
      connections_from: '%',
      // The host's limit per user (10 unless set), an integer and never null.
      max_connections: 10,
      host: { address: mariadb().host, port: mariadb().port },
    });
    expect(created.attributes.username).toMatch(new RegExp(`^u${dbs.server.id}_[A-Za-z0-9]{10}$`));
    const password = created.attributes.relationships?.password.attributes?.password ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{32}$/);

    const conn = await mysql.createConnection({
      host: address,
      port,
      user: created.attributes.username,
      password,
      database: created.attributes.name,
    });
    await conn.query('CREATE TABLE homes (player VARCHAR(16) PRIMARY KEY, x INT, z INT)');
    await conn.end();

    const plain = (await dbs.call('GET')).json() as { object: string; data: DatabaseJson[] };
    expect(plain.data).toHaveLength(1);
    expect(plain.data[0]?.attributes).not.toHaveProperty('relationships');
    const withPassword = (await dbs.call('GET', '?include=password')).json() as { data: DatabaseJson[] };
    expect(withPassword.data[0]?.attributes.relationships?.password).toEqual({ object: 'database_password', attributes: { password } });

    expect(await dbs.events()).toEqual([{ event: 'server:database.create', properties: { name: `s${dbs.server.id}_${name}` } }]);
  });

  // attacks T-LEAK-2 (with the create-only and update-only cases below)
  it('shows a subuser without database.view_password no password, and refuses what it may not do', async ({ panel, dbs }) => {
    const created = (await dbs.call('POST', '', { database: uniqueName('perm'), remote: '%' })).json() as DatabaseJson;
    const reader = await panel.user();
    await panel.subuser(dbs.server, reader, ['database.read']);
    const as = await panel.bearerHeaders(reader);
    const listed = (await dbs.call('GET', '?include=password', undefined, as)).json() as { data: DatabaseJson[] };
    expect(listed.data[0]?.attributes.relationships?.password).toEqual({ object: 'null_resource', attributes: null });
    expect((await dbs.call('POST', '', { database: 'x', remote: '%' }, as)).statusCode).toBe(403);
    expect((await dbs.call('POST', `/${created.attributes.id}/rotate-password`, undefined, as)).statusCode).toBe(403);
    expect((await dbs.call('DELETE', `/${created.attributes.id}`, undefined, as)).statusCode).toBe(403);

    const viewer = await panel.user();
    await panel.subuser(dbs.server, viewer, ['database.read', 'database.view_password']);
    const seen = (await dbs.call('GET', '?include=password', undefined, await panel.bearerHeaders(viewer))).json() as { data: DatabaseJson[] };
    expect(seen.data[0]?.attributes.relationships?.password.object).toBe('database_password');
  });

  it("rotates the password on the host at once: the old one fails, the response's works", async ({ dbs }) => {
    const created = (await dbs.call('POST', '', { database: uniqueName('rot'), remote: '%' })).json() as DatabaseJson;
    const old = created.attributes.relationships?.password.attributes?.password ?? '';
    const res = await dbs.call('POST', `/${created.attributes.id}/rotate-password`);
    expect(res.statusCode).toBe(200);
    const fresh = (res.json() as DatabaseJson).attributes.relationships?.password.attributes?.password ?? '';
    expect(fresh).not.toBe(old);
    const { host, port } = mariadb();
    const user = created.attributes.username;
    await expect(mysql.createConnection({ host, port, user, password: old })).rejects.toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
    await (await mysql.createConnection({ host, port, user, password: fresh, database: created.attributes.name })).end();
    const listed = (await dbs.call('GET', '?include=password')).json() as { data: DatabaseJson[] };
    expect(listed.data[0]?.attributes.relationships?.password.attributes?.password).toBe(fresh);
    expect((await dbs.events()).map((e) => e.event)).toEqual(['server:database.create', 'server:database.rotate-password']);
    expect(JSON.stringify(await dbs.events())).not.toContain(fresh);
  });

  it('deletes the database and its user from the host, then the record', async ({ dbs }) => {
    const created = (await dbs.call('POST', '', { database: uniqueName('del'), remote: '%' })).json() as DatabaseJson;
    expect((await onHost(dbs.server.id)).databases).toEqual([created.attributes.name]);
    expect((await dbs.call('DELETE', `/${created.attributes.id}`)).statusCode).toBe(204);
    expect(await onHost(dbs.server.id)).toEqual({ databases: [], users: [] });
    expect((await dbs.call('GET')).json()).toEqual({ object: 'list', data: [], meta: { has_database_host: true } });
    expect((await dbs.events()).at(-1)).toEqual({ event: 'server:database.delete', properties: { name: created.attributes.name } });
    expect((await dbs.call('DELETE', `/${created.attributes.id}`)).statusCode).toBe(404);
  });

  // attacks T-AZ-2 (databases: rotate and delete through another server's URL)
  it("answers 404 for another server's database", async ({ panel, dbs }) => {
    const created = (await dbs.call('POST', '', { database: uniqueName('mine'), remote: '%' })).json() as DatabaseJson;
    const other = await setup(panel, null);
    try {
      for (const id of [created.attributes.id, 'abc', '999999']) {
        expect((await other.call('POST', `/${id}/rotate-password`)).statusCode).toBe(404);
        expect((await other.call('DELETE', `/${id}`)).statusCode).toBe(404);
      }
      expect((await onHost(dbs.server.id)).databases).toEqual([created.attributes.name]);
    } finally {
      await dropAll([other.server.id]);
    }
  });

  it('enforces the database limit (0: none) and refuses a duplicate name', async ({ panel, dbs }) => {
    const name = uniqueName('lim');
    await panel.db.updateTable('servers').set({ database_limit: 0 }).where('id', '=', dbs.server.id).execute();
    const none = await dbs.call('POST', '', { database: name, remote: '%' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0]).toMatchObject({ code: 'TooManyDatabasesException' });

    await panel.db.updateTable('servers').set({ database_limit: 2 }).where('id', '=', dbs.server.id).execute();
    expect((await dbs.call('POST', '', { database: name, remote: '%' })).statusCode).toBe(200);
    const duplicate = await dbs.call('POST', '', { database: name, remote: '10.0.0.%' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors[0]).toMatchObject({ code: 'DuplicateDatabaseNameException' });
    expect((await dbs.call('POST', '', { database: uniqueName('two'), remote: '%' })).statusCode).toBe(200);
    const third = await dbs.call('POST', '', { database: uniqueName('three'), remote: '%' });
    expect(third.json().errors[0]).toMatchObject({ code: 'TooManyDatabasesException', status: '400' });
    expect((await onHost(dbs.server.id)).databases).toHaveLength(2);
  });

  it('refuses bad names and remotes with 422 and creates nothing on the host', async ({ dbs }) => {
    for (const database of ['../x', "it's", 'a"b', 'a`b', 'a b', 'x'.repeat(49), '']) {
      const res = await dbs.call('POST', '', { database, remote: '%' });
      expect(res.statusCode, database).toBe(422);
      expect(res.json().errors[0].source).toEqual({ field: 'database' });
    }
    for (const remote of ["%' OR 1=1 -- ", 'evil host', '']) {
      const res = await dbs.call('POST', '', { database: 'ok', remote });
      expect(res.statusCode, remote).toBe(422);
      expect(res.json().errors[0].source).toEqual({ field: 'remote' });
    }
    expect(await onHost(dbs.server.id)).toEqual({ databases: [], users: [] });
    expect(await dbs.events()).toEqual([]);
  });

  it('answers 503 and changes nothing when the host fails, at create midway and at delete', async ({ panel, dbs }) => {
    const created = (await dbs.call('POST', '', { database: uniqueName('keep'), remote: '%' })).json() as DatabaseJson;
    // The host stops answering: the record stays, the database too.
    await panel.db.updateTable('database_hosts').set({ port: 1 }).execute();
    const gone = await dbs.call('DELETE', `/${created.attributes.id}`);
    expect(gone.statusCode).toBe(503);
    expect(gone.json().errors[0]).toMatchObject({ code: 'DatabaseHostUnavailableException' });
    expect(JSON.stringify(gone.json())).not.toContain(mariadb().password);
    expect((await dbs.call('POST', `/${created.attributes.id}/rotate-password`)).statusCode).toBe(503);
    expect(((await dbs.call('GET')).json() as { data: unknown[] }).data).toHaveLength(1);

    // An admin that can create the database and the user but not grant on it: the host refuses midway.
    const half = { ...mariadb(), username: `half_${randomAlnum(6)}`, password: 'half-password-123' };
    await withHost(mariadb(), async (conn) => {
      await conn.query('CREATE USER ?@? IDENTIFIED BY ?', [half.username, '%', half.password]);
      await conn.query('GRANT CREATE, DROP, CREATE USER ON *.* TO ?@? WITH GRANT OPTION', [half.username, '%']);
    });
    try {
      await panel.db.deleteFrom('databases').execute();
      await panel.db.deleteFrom('database_hosts').execute();
      await saveHost(panel.db, loadSecretBox(panel.dataDir), { name: 'half', ...half }, panel.clock.now());
      const before = await onHost(dbs.server.id);
      const midway = await dbs.call('POST', '', { database: uniqueName('mid'), remote: '%' });
      expect(midway.statusCode).toBe(503);
      expect(await onHost(dbs.server.id)).toEqual(before);
      expect(await panel.db.selectFrom('databases').selectAll().execute()).toEqual([]);
      expect((await dbs.events()).map((e) => e.event)).toEqual(['server:database.create']);
    } finally {
      await withHost(mariadb(), (conn) => conn.query('DROP USER ?@?', [half.username, '%']));
    }
  });

  it('says plainly that the panel has no database host', async ({ panel }) => {
    const bare = await setup(panel, null);
    expect((await bare.call('GET', '?include=password')).json()).toEqual({ object: 'list', data: [], meta: { has_database_host: false } });
    const res = await bare.call('POST', '', { database: 'x', remote: '%' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ code: 'NoSuitableDatabaseHostException', detail: expect.stringMatching(/no database host/) });
  });
});

describe('server databases: attacks', () => {
  it('T-RACE-1: 20 parallel creates at a limit of 2 make exactly 2, on the host too', { timeout: 30_000 }, async ({ panel, dbs }) => {
    await panel.db.updateTable('servers').set({ database_limit: 2 }).where('id', '=', dbs.server.id).execute();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => dbs.call('POST', '', { database: uniqueName(`race${i}`), remote: '%' })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c !== 200).every((c) => c === 400 || c === 429)).toBe(true);
    expect(((await dbs.call('GET')).json() as { data: unknown[] }).data).toHaveLength(2);
    expect((await onHost(dbs.server.id)).databases).toHaveLength(2);
    expect((await onHost(dbs.server.id)).users).toHaveLength(2);
  });

  it('T-RACE-1: the same name three times at once makes one database, the others are the duplicate 400', { timeout: 30_000 }, async ({ dbs }) => {
    const name = uniqueName('twin');
    const results = await Promise.all([1, 2, 3].map(() => dbs.call('POST', '', { database: name, remote: '%' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.statusCode !== 200)) {
      expect(loser.json().errors[0]).toMatchObject({ status: '400', code: 'DuplicateDatabaseNameException' });
    }
    expect((await onHost(dbs.server.id)).databases).toEqual([`s${dbs.server.id}_${name}`]);
  });

  it('refuses a name differing only in case from an existing one, as the reference (a case-insensitive column) does', async ({ dbs }) => {
    const name = uniqueName('Case');
    expect((await dbs.call('POST', '', { database: name, remote: '%' })).statusCode).toBe(200);
    const twin = await dbs.call('POST', '', { database: name.toLowerCase(), remote: '%' });
    expect(twin.statusCode).toBe(400);
    expect(twin.json().errors[0]).toMatchObject({ code: 'DuplicateDatabaseNameException' });
    expect((await onHost(dbs.server.id)).databases).toHaveLength(1);
  });

  it('takes only % and IP patterns as remotes: injection, host names and long values are 422', async ({ dbs }) => {
    for (const remote of ["%' OR 1=1", "%' OR 1=1 -- ", 'localhost', 'evil.example', '1'.repeat(300), '%\u0000', '10.0.0.1\nx']) {
      const res = await dbs.call('POST', '', { database: uniqueName('r'), remote });
      expect(res.statusCode, remote).toBe(422);
      expect(res.json().errors[0].source).toEqual({ field: 'remote' });
    }
    expect(await onHost(dbs.server.id)).toEqual({ databases: [], users: [] });
    // An IPv6 loopback and a netmask are remotes the host takes as they are: created, then deleted cleanly.
    for (const remote of ['::1', '0.0.0.0/0', '0.0.0.0/0.0.0.0']) {
      const res = await dbs.call('POST', '', { database: uniqueName('ok'), remote });
      expect(res.statusCode, remote).toBe(200);
      expect((res.json() as DatabaseJson).attributes.connections_from).toBe(remote);
      expect((await dbs.call('DELETE', `/${(res.json() as DatabaseJson).attributes.id}`)).statusCode).toBe(204);
    }
    expect(await onHost(dbs.server.id)).toEqual({ databases: [], users: [] });
  });

  it('T-LEAK-2: database.create or database.update alone never see a password; no password in activity', async ({ panel, dbs }) => {
    const creator = await panel.user();
    await panel.subuser(dbs.server, creator, ['database.create']);
    const made = await dbs.call('POST', '', { database: uniqueName('c'), remote: '%' }, await panel.bearerHeaders(creator));
    expect(made.statusCode).toBe(200);
    const created = made.json() as DatabaseJson;
    expect(created.attributes.relationships?.password).toEqual({ object: 'null_resource', attributes: null });

    const updater = await panel.user();
    await panel.subuser(dbs.server, updater, ['database.update']);
    const rotated = await dbs.call('POST', `/${created.attributes.id}/rotate-password`, undefined, await panel.bearerHeaders(updater));
    expect(rotated.statusCode).toBe(200);
    expect((rotated.json() as DatabaseJson).attributes.relationships?.password).toEqual({ object: 'null_resource', attributes: null });

    const owners = (await dbs.call('GET', '?include=password')).json() as { data: DatabaseJson[] };
    const password = owners.data[0]?.attributes.relationships?.password.attributes?.password ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{32}$/);
    const logged = await panel.db.selectFrom('activity_logs').select('properties').execute();
    expect(JSON.stringify(logged)).not.toContain(password);
  });
});
