import mysql from 'mysql2/promise';
import { describe, expect } from 'vitest';
import { databaseHosts, serverDatabases } from '../db/repos';
import { randomAlnum } from '../lib/crypto';
import { loadSecretBox } from '../lib/secret-box';
import { test } from '../test/fixtures';
import { useTestMariadb } from '../test/mariadb';
import { repairMarkedHosts } from './database-grants';
import { saveHost, withHost, type HostAccess } from './database-hosts';
import { createDatabaseOnHost, dropDatabaseOnHost, type CreatedDatabase } from './database-operations';

/*
 * Attacks T-SBX-DB and T-SBX-DBCONN (attacks.md, tenant processes) on a real MariaDB: a tenant's
 * database user, whatever its server id and database name, reaches its own database and nothing
 * else, holds at most its limit of the host's connections, and users made by an older panel with
 * a wildcard grant are repaired.
 */

const mariadb = useTestMariadb();
const it = test;

// Each test its own names on the shared instance; lower case, as a host may fold case.
const suffix = () => randomAlnum(6).toLowerCase();

function connectAs(user: { username: string; password: string }, database?: string): Promise<mysql.Connection> {
  const { host, port } = mariadb();
  return mysql.createConnection({ host, port, user: user.username, password: user.password, database });
}

/** The user's own SHOW GRANTS lines. */
async function grantsOf(user: { username: string; password: string }): Promise<string[]> {
  const conn = await connectAs(user);
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>('SHOW GRANTS FOR CURRENT_USER()');
    return rows.map((row) => String(Object.values(row)[0]));
  } finally {
    await conn.end();
  }
}

/** The database patterns a user holds grants on (everything but `*.*`), as SHOW GRANTS writes them. */
const databaseGrants = (lines: string[]) => lines.flatMap((line) => /^GRANT .+ ON (`.+`)\.\* TO /.exec(line)?.[1] ?? []);

/** Every way server `from`'s user could use `target`: each must be refused. */
async function expectNoReach(user: CreatedDatabase, target: string): Promise<void> {
  await expect(connectAs(user, target)).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
  const conn = await connectAs(user, user.database);
  try {
    await expect(conn.query('USE ??', [target])).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
    await expect(conn.query('SELECT * FROM ??.secrets', [target])).rejects.toMatchObject({ code: 'ER_TABLEACCESS_DENIED_ERROR' });
    await expect(conn.query('INSERT INTO ??.secrets VALUES (?)', [target, 'planted'])).rejects.toMatchObject({
      code: 'ER_TABLEACCESS_DENIED_ERROR',
    });
    await expect(conn.query('DROP DATABASE ??', [target])).rejects.toMatchObject({ code: 'ER_DBACCESS_DENIED_ERROR' });
    const [visible] = await conn.query<mysql.RowDataPacket[]>('SHOW DATABASES');
    expect(visible.map((r) => r.Database)).not.toContain(target);
  } finally {
    await conn.end();
  }
}

async function withSecrets(access: HostAccess, database: string): Promise<void> {
  await withHost(access, async (conn) => {
    await conn.query('CREATE TABLE ??.secrets (v VARCHAR(32))', [database]);
    await conn.query('INSERT INTO ??.secrets VALUES (?)', [database, 'server 70 only']);
  });
}

describe('database grants on a real MariaDB', () => {
  // attacks T-SBX-DB
  it("keeps server 7's users out of server 70's database, whatever their names (_ and all underscores)", async () => {
    const access = mariadb();
    const s = suffix();
    const victim = await createDatabaseOnHost(access, { serverId: 70, name: `main${s}`, remote: '%', maxConnections: 10 });
    await withSecrets(access, victim.database);
    // `s7__main…` read as a pattern is `s7`, any character, `_main…`: s70_main… among others; and
    // underscores alone, as long as the victim's name, match it without knowing the name.
    const prefixed = await createDatabaseOnHost(access, { serverId: 7, name: `_main${s}`, remote: '%', maxConnections: 10 });
    const blind = await createDatabaseOnHost(access, {
      serverId: 7,
      name: '_'.repeat(victim.database.length - 's7_'.length),
      remote: '%',
      maxConnections: 10,
    });
    try {
      expect(victim.database).toBe(`s70_main${s}`);
      expect(blind.database).toHaveLength(victim.database.length);
      for (const attacker of [prefixed, blind]) {
        await expectNoReach(attacker, victim.database);
        expect(databaseGrants(await grantsOf(attacker))).toEqual([`\`${attacker.database.replace(/_/g, '\\_')}\``]);
        // Its own database is all its own.
        const own = await connectAs(attacker, attacker.database);
        await own.query('CREATE TABLE mine (id INT)');
        await own.end();
      }
      expect(databaseGrants(await grantsOf(victim))).toEqual([`\`s70\\_main${s}\``]);
      await expectNoReach(victim, prefixed.database);
    } finally {
      for (const made of [victim, prefixed, blind]) await dropDatabaseOnHost(access, made);
    }
  });

  // attacks T-SBX-DBCONN
  it('gives a user at most its MAX_USER_CONNECTIONS of the host: the one past it is refused', async () => {
    const access = mariadb();
    const made = await createDatabaseOnHost(access, { serverId: 7, name: `conn${suffix()}`, remote: '%', maxConnections: 3 });
    const open: mysql.Connection[] = [];
    try {
      expect((await grantsOf(made)).join('\n')).toMatch(/ WITH MAX_USER_CONNECTIONS 3\b/);
      for (let i = 0; i < 3; i += 1) open.push(await connectAs(made, made.database));
      await expect(connectAs(made, made.database)).rejects.toMatchObject({
        code: 'ER_USER_LIMIT_REACHED',
        message: expect.stringContaining("has exceeded the 'max_user_connections' resource"),
      });
      // The host's admin still gets in: one tenant holds only its own share.
      await withHost(access, (conn) => conn.query('SELECT 1'));
      // A closed connection frees its place once the server has seen it go (not at once).
      await open.pop()?.end();
      let again: mysql.Connection | null = null;
      for (let i = 0; i < 50 && !again; i += 1) {
        again = await connectAs(made, made.database).catch(async () => {
          await new Promise((r) => setTimeout(r, 50));
          return null;
        });
      }
      expect(again).not.toBeNull();
      if (again) open.push(again);
    } finally {
      for (const conn of open) await conn.end();
      await dropDatabaseOnHost(access, made);
    }
  });

  it('repairs a user an older panel made: its wildcard grant becomes the escaped one, with a connection limit', async ({ panel }) => {
    const access = mariadb();
    const box = loadSecretBox(panel.dataDir);
    const host = await saveHost(panel.db, box, { name: 'default', ...access }, panel.clock.now());
    // As migration 010 leaves a host that had databases before it.
    await databaseHosts.update(panel.db, host.id, { grants_need_repair: 1 });
    const server = await panel.server(await panel.user());
    const s = suffix();
    const victim = await createDatabaseOnHost(access, { serverId: 70, name: `x${s}`, remote: '%', maxConnections: 10 });
    await withSecrets(access, victim.database);
    // What the old code did: no limit, and the raw name granted.
    const old = { database: `s7__x${s}`, username: `u7_${randomAlnum(10)}`, password: randomAlnum(32), remote: '%' };
    const gone = { database: `s7_gone${s}`, username: `u7_${randomAlnum(10)}`, remote: '%' };
    await withHost(access, async (conn) => {
      await conn.query('CREATE DATABASE ??', [old.database]);
      await conn.query('CREATE USER ?@? IDENTIFIED BY ?', [old.username, old.remote, old.password]);
      await conn.query('GRANT ALL PRIVILEGES ON ??.* TO ?@?', [old.database, old.username, old.remote]);
    });
    for (const row of [old, { ...gone, password: 'x' }]) {
      await serverDatabases.insert(panel.db, {
        ...row,
        server_id: server.id,
        database_host_id: host.id,
        password: box.seal(row.password),
        max_connections: 10,
        created_at: '2026-03-01T12:00:00Z',
        updated_at: '2026-03-01T12:00:00Z',
      });
    }
    try {
      // The hole as it was: the old user reads server 70's secrets.
      const before = await connectAs(old, victim.database);
      await before.end();

      expect(await repairMarkedHosts(panel.db, box)).toEqual([
        {
          failed: false,
          message: `Database host "default": 1 user(s) now reach only their own database, with a connection limit; no user any more for ${gone.database}.`,
        },
      ]);
      const lines = await grantsOf(old);
      expect(databaseGrants(lines)).toEqual([`\`s7\\_\\_x${s}\``]);
      expect(lines.join('\n')).toMatch(/ WITH MAX_USER_CONNECTIONS 10\b/);
      await expectNoReach({ ...old, remote: '%' }, victim.database);
      expect((await databaseHosts.findById(panel.db, host.id))?.grants_need_repair).toBe(0);
      // Once only: the host is no longer marked.
      expect(await repairMarkedHosts(panel.db, box)).toEqual([]);
    } finally {
      await dropDatabaseOnHost(access, victim);
      await dropDatabaseOnHost(access, old);
    }
  });

  // attacks T-SBX-DBCONN, through the API: the host's limit per user, on the host and in the resource
  it("creates a tenant's database with its host's connection limit, repairing a marked host first", async ({ panel }) => {
    const access = mariadb();
    const box = loadSecretBox(panel.dataDir);
    const host = await saveHost(panel.db, box, { name: 'default', ...access, maxConnectionsPerUser: 2 }, panel.clock.now());
    await databaseHosts.update(panel.db, host.id, { grants_need_repair: 1 });
    const owner = await panel.user();
    const server = await panel.server(owner);
    const res = await panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${server.uuid}/databases`,
      headers: await panel.bearerHeaders(owner),
      payload: { database: `pool${suffix()}`, remote: '%' },
    });
    expect(res.statusCode).toBe(200);
    const { attributes } = res.json() as {
      attributes: { name: string; username: string; max_connections: unknown; relationships: { password: { attributes: { password: string } } } };
    };
    const made = { ...attributes, database: attributes.name, password: attributes.relationships.password.attributes.password, remote: '%' };
    const open: mysql.Connection[] = [];
    try {
      expect(attributes.max_connections).toBe(2);
      for (let i = 0; i < 2; i += 1) open.push(await connectAs(made, made.database));
      await expect(connectAs(made, made.database)).rejects.toMatchObject({ code: 'ER_USER_LIMIT_REACHED' });
      expect((await databaseHosts.findById(panel.db, host.id))?.grants_need_repair).toBe(0);
    } finally {
      for (const conn of open) await conn.end();
      await dropDatabaseOnHost(access, made);
    }
  });

  it('keeps a host it could not reach marked, and says so', async ({ panel }) => {
    const box = loadSecretBox(panel.dataDir);
    const now = panel.clock.now().toISOString();
    const away = { name: 'away', host: '127.0.0.1', port: 1, username: 'root', password: box.seal('Admin-pw-1') };
    const host = await databaseHosts.insert(panel.db, { ...away, grants_need_repair: 1, created_at: now, updated_at: now });
    const lines = await repairMarkedHosts(panel.db, box);
    expect(lines).toEqual([{ failed: true, message: expect.stringMatching(/^Database host "away" could not be repaired .*ECONNREFUSED/) }]);
    expect(JSON.stringify(lines)).not.toContain('Admin-pw-1');
    expect((await databaseHosts.findById(panel.db, host.id))?.grants_need_repair).toBe(1);
  });
});
