import mysql from 'mysql2/promise';
import { describe, expect } from 'vitest';
import { applicationDatabaseListSchema, applicationDatabaseSchema } from '../../src/contract';
import { randomAlnum } from '../lib/crypto';
import { loadSecretBox } from '../lib/secret-box';
import { saveHost, withHost } from '../services/database-hosts';
import { test } from '../test/fixtures';
import { useTestMariadb } from '../test/mariadb';

/*
 * The application API's server databases against a real MariaDB: made on the host named, its
 * credentials work, the password is reset there at once, deletion drops it; the key's grants.
 */

const mariadb = useTestMariadb();

const it = test.extend('setup', async ({ panel }, { onCleanup }) => {
  const host = await saveHost(panel.db, loadSecretBox(panel.dataDir), { name: 'default', ...mariadb() }, panel.clock.now());
  const admin = await panel.user({ admin: true });
  const key = await panel.applicationHeaders(admin);
  const server = await panel.server(await panel.user());
  const call = (method: 'GET' | 'POST' | 'DELETE', path = '', payload?: object, headers = key) =>
    panel.app.inject({ method, url: `/api/application/servers/${server.id}/databases${path}`, headers, ...(payload ? { payload } : {}) });
  const onHost = () =>
    withHost(mariadb(), async (conn) => {
      const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [
        `s${server.id}\\_%`,
      ]);
      return rows.map((r) => String(r.n));
    });
  // Every panel's first server is s1, on one shared instance: drop what the test left.
  onCleanup(async () => {
    for (const name of await onHost()) await withHost(mariadb(), (conn) => conn.query('DROP DATABASE ??', [name]));
  });
  return { host, admin, server, call, onHost };
});

describe('server databases through the application API', () => {
  it('creates on the host named, resets the password there, deletes', { timeout: 60_000 }, async ({ panel, setup }) => {
    const { call, host, server, onHost, admin } = setup;
    const name = `shop_${randomAlnum(6)}`;
    expect((await call('POST', '', { database: name, remote: '%' })).json().errors[0].meta.source_field).toBe('host');
    expect((await call('POST', '', { database: name, remote: '%', host: 999 })).json().errors[0].meta.source_field).toBe('host');
    expect((await call('POST', '', { database: 'bad name!', remote: '%', host: host.id })).statusCode).toBe(422);

    const res = await call('POST', '', { database: name, remote: '%', host: host.id });
    expect(res.statusCode, res.body).toBe(201);
    const created = applicationDatabaseSchema.parse(res.json()).attributes;
    expect(created).toMatchObject({ server: server.id, host: host.id, database: `s${server.id}_${name}`, remote: '%' });
    expect(await onHost()).toEqual([created.database]);

    const withPassword = applicationDatabaseListSchema.parse((await call('GET', '?include=password,host')).json());
    const relationships = withPassword.data[0]?.attributes.relationships;
    const password = String(relationships?.password?.attributes?.password);
    expect(relationships?.host?.attributes).toMatchObject({ id: host.id });
    const connect = (secret: string) =>
      mysql.createConnection({ host: mariadb().host, port: mariadb().port, user: created.username, password: secret, database: created.database });
    await (await connect(password)).end();

    expect((await call('POST', `/${created.id}/reset-password`)).statusCode).toBe(204);
    await expect(connect(password)).rejects.toThrow(/Access denied/);
    const fresh = (await call('GET', `/${created.id}?include=password`)).json().attributes.relationships.password.attributes.password;
    await (await connect(String(fresh))).end();

    // Keys: read-only reads but writes nothing; without the grant, 403; the password withheld without database_hosts too.
    const readOnly = await panel.applicationHeaders(admin, { server_databases: 1 });
    expect((await call('GET', `/${created.id}?include=host`, undefined, readOnly)).json().attributes.relationships.host.object).toBe('null_resource');
    expect((await call('DELETE', `/${created.id}`, undefined, readOnly)).statusCode).toBe(403);
    expect((await call('GET', '', undefined, await panel.applicationHeaders(admin, { servers: 3 }))).statusCode).toBe(403);
    expect((await call('GET', '/99999')).statusCode).toBe(404);

    expect((await call('DELETE', `/${created.id}`)).statusCode).toBe(204);
    expect(await onHost()).toEqual([]);
    expect((await call('GET')).json().data).toEqual([]);
    const events = await panel.db.selectFrom('activity_logs').select('event').where('event', 'like', 'admin:database.%').orderBy('id').execute();
    expect(events.map((e) => e.event)).toEqual(['admin:database.create', 'admin:database.rotate-password', 'admin:database.delete']);
  });
});
