import { randomInt } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { useTestMariadb } from '../test/mariadb';
import { DatabaseHostError, withHost, type HostAccess } from './database-hosts';
import { createDatabaseOnHost, dropDatabaseOnHost, InvalidIdentifierError, rotatePasswordOnHost } from './database-operations';

const mariadb = useTestMariadb();

// Each test its own server ids, so tests sharing the instance never meet.
const serverId = () => randomInt(100_000, 1_000_000_000);

async function connectAs(access: HostAccess, user: string, password: string, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: access.host, port: access.port, user, password, database });
}

async function existing(access: HostAccess, id: number): Promise<{ databases: string[]; users: string[] }> {
  return withHost(access, async (conn) => {
    const [dbs] = await conn.query<mysql.RowDataPacket[]>('SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [
      `s${id}\\_%`,
    ]);
    const [users] = await conn.query<mysql.RowDataPacket[]>('SELECT User AS n FROM mysql.user WHERE User LIKE ?', [`u${id}\\_%`]);
    return { databases: dbs.map((r) => String(r.n)), users: users.map((r) => String(r.n)) };
  });
}

async function refusal(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );
}

describe('host operations on a real MariaDB', () => {
  it('creates a database its user can use, from its remote, named s<id>_<name> and u<id>_<10>', async () => {
    const access = mariadb();
    const id = serverId();
    const created = await createDatabaseOnHost(access, { serverId: id, name: 'web-map_1', remote: '%', maxConnections: 10 });
    expect(created.database).toBe(`s${id}_web-map_1`);
    expect(created.username).toMatch(new RegExp(`^u${id}_[A-Za-z0-9]{10}$`));
    expect(created.password).toMatch(/^[A-Za-z0-9]{32}$/);

    const conn = await connectAs(access, created.username, created.password, created.database);
    await conn.query('CREATE TABLE players (id INT PRIMARY KEY, name VARCHAR(32))');
    await conn.query('INSERT INTO players VALUES (1, ?)', ['ann']);
    const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT name FROM players');
    expect(rows.map((r) => r.name)).toEqual(['ann']);
    // All on its own database, nothing else: no other database, no CREATE USER.
    await expect(conn.query('CREATE DATABASE elsewhere')).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
    await conn.end();
    await dropDatabaseOnHost(access, created);
  });

  it("keeps one server's user out of another server's database", async () => {
    const access = mariadb();
    const [a, b] = [serverId(), serverId()];
    const first = await createDatabaseOnHost(access, { serverId: a, name: 'shop', remote: '%', maxConnections: 10 });
    const second = await createDatabaseOnHost(access, { serverId: b, name: 'shop', remote: '%', maxConnections: 10 });

    await expect(connectAs(access, second.username, second.password, first.database)).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
    const conn = await connectAs(access, second.username, second.password);
    const [visible] = await conn.query<mysql.RowDataPacket[]>('SHOW DATABASES');
    expect(visible.map((r) => r.Database)).not.toContain(first.database);
    await expect(conn.query(`SELECT * FROM ${conn.escapeId(first.database)}.t`)).rejects.toMatchObject({ code: 'ER_TABLEACCESS_DENIED_ERROR' });
    await conn.end();
    await dropDatabaseOnHost(access, first);
    await dropDatabaseOnHost(access, second);
  });

  it('rotates a password: the old one fails at once, the new one works', async () => {
    const access = mariadb();
    const created = await createDatabaseOnHost(access, { serverId: serverId(), name: 'perms', remote: '%', maxConnections: 10 });
    const rotated = await rotatePasswordOnHost(access, created);
    expect(rotated).not.toBe(created.password);
    await expect(connectAs(access, created.username, created.password, created.database)).rejects.toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
    const conn = await connectAs(access, created.username, rotated, created.database);
    await conn.end();
    await dropDatabaseOnHost(access, created);
  });

  it('drops the database and its user', async () => {
    const access = mariadb();
    const id = serverId();
    const created = await createDatabaseOnHost(access, { serverId: id, name: 'gone', remote: '%', maxConnections: 10 });
    expect(await existing(access, id)).toEqual({ databases: [created.database], users: [created.username] });
    await dropDatabaseOnHost(access, created);
    expect(await existing(access, id)).toEqual({ databases: [], users: [] });
    await expect(connectAs(access, created.username, created.password)).rejects.toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
  });

  it('refuses bad names and remotes before touching the host', async () => {
    const access = mariadb();
    const id = serverId();
    for (const name of ['../x', "a'b", 'a"b', 'a`b', 'a b', 'x'.repeat(49), '', 'a;DROP DATABASE mysql']) {
      const error = await refusal(createDatabaseOnHost(access, { serverId: id, name, remote: '%', maxConnections: 10 }));
      expect(error, name).toBeInstanceOf(InvalidIdentifierError);
      expect((error as InvalidIdentifierError).field).toBe('database');
    }
    for (const remote of ["%' OR '1", 'host name', 'a`b', '', 'x'.repeat(61)]) {
      const error = await refusal(createDatabaseOnHost(access, { serverId: id, name: 'ok', remote, maxConnections: 10 }));
      expect((error as InvalidIdentifierError).field, remote).toBe('remote');
    }
    expect(await existing(access, id)).toEqual({ databases: [], users: [] });
    // 48 characters is the most, and dashes and underscores are fine; so are address patterns.
    const longest = await createDatabaseOnHost(access, {
      serverId: id,
      name: `a-_${'b'.repeat(45)}`,
      remote: '10.0.0.0/255.0.0.0',
      maxConnections: 10,
    });
    await dropDatabaseOnHost(access, longest);
  });

  it('leaves nothing behind when the host refuses a step midway', async () => {
    const root = mariadb();
    const id = serverId();
    // An admin that passes the host check (CREATE, DROP, CREATE USER, GRANT OPTION) but cannot
    // grant ALL: the database and the user are made, then the grant fails on the host.
    const half = { ...root, username: `half_${id}`, password: 'half-password-123' };
    await withHost(root, async (conn) => {
      await conn.query('CREATE USER ?@? IDENTIFIED BY ?', [half.username, '%', half.password]);
      await conn.query('GRANT CREATE, DROP, CREATE USER ON *.* TO ?@? WITH GRANT OPTION', [half.username, '%']);
    });
    const error = await refusal(createDatabaseOnHost(half, { serverId: id, name: 'midway', remote: '%', maxConnections: 10 }));
    expect(error).toBeInstanceOf(DatabaseHostError);
    expect((error as Error).message).toMatch(/Could not grant u\d+_\w+ access to s\d+_midway/);
    expect(await existing(root, id)).toEqual({ databases: [], users: [] });
    await withHost(root, (conn) => conn.query('DROP USER ?@?', [half.username, '%']));
  });

  it('leaves nothing behind when the host goes away midway, its connection cut after the database was made', async () => {
    const root = mariadb();
    const id = serverId();
    // A proxy to the host that cuts the first connection as CREATE USER goes out; later ones pass.
    let cut = false;
    const proxy = net.createServer((client) => {
      const upstream = net.connect(root.port, root.host);
      for (const socket of [client, upstream]) socket.on('error', () => {});
      upstream.pipe(client);
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.on('data', (chunk: Buffer) => {
        if (!cut && chunk.includes('CREATE USER')) {
          cut = true;
          client.destroy();
          return;
        }
        upstream.write(chunk);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const access = { ...root, host: '127.0.0.1', port: (proxy.address() as AddressInfo).port };
      const error = await refusal(createDatabaseOnHost(access, { serverId: id, name: 'gone', remote: '%', maxConnections: 10 }));
      expect(cut).toBe(true);
      expect(error).toBeInstanceOf(DatabaseHostError);
      expect(await existing(root, id)).toEqual({ databases: [], users: [] });
    } finally {
      proxy.close();
    }
  });

  it('never drops a database it did not create', async () => {
    const access = mariadb();
    const id = serverId();
    await withHost(access, async (conn) => {
      await conn.query('CREATE DATABASE ??', [`s${id}_taken`]);
      await conn.query('CREATE TABLE ??.keep (id INT)', [`s${id}_taken`]);
    });
    const error = await refusal(createDatabaseOnHost(access, { serverId: id, name: 'taken', remote: '%', maxConnections: 10 }));
    expect((error as Error).message).toMatch(/Could not create database s\d+_taken: .*exists/);
    const [tables] = await withHost(access, (conn) => conn.query<mysql.RowDataPacket[]>('SHOW TABLES FROM ??', [`s${id}_taken`]));
    expect(tables).toHaveLength(1);
    expect((await existing(access, id)).users).toEqual([]);
    await withHost(access, (conn) => conn.query('DROP DATABASE ??', [`s${id}_taken`]));
  });

  it('says a host that is not there cannot be reached, naming no password', async () => {
    const access = { ...mariadb(), port: 1, password: 'secret-admin-pw' };
    const error = await refusal(createDatabaseOnHost(access, { serverId: serverId(), name: 'nowhere', remote: '%', maxConnections: 10 }));
    expect(error).toBeInstanceOf(DatabaseHostError);
    expect((error as DatabaseHostError).unreachable).toBe(true);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain('secret-admin-pw');
  });
});
