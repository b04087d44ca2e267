import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { describe, expect } from 'vitest';
import { CliError, runCli, type CliDeps } from '../cli/commands';
import { testConfig } from '../config';
import { serverDatabases } from '../db/repos';
import { isSealed, loadSecretBox } from '../lib/secret-box';
import { fixedClock } from '../lib/time';
import { test } from '../test/fixtures';
import { freePort, useTestMariadb } from '../test/mariadb';
import { withHost } from './database-hosts';
import { localDaemon } from './local-node';
import { setUpDatabaseHosts, startManagedMariadb } from './managed-mariadb';
import { nodeDaemons } from './node-daemons';

const mariadb = useTestMariadb();

const it = test
  .extend('deps', async ({ tempDir, database }): Promise<CliDeps> => {
    const clock = fixedClock('2026-03-01T12:00:00Z');
    const daemon = localDaemon(database, { dataDir: tempDir, clock, maxUploadBytes: 1024 * 1024 });
    return { db: database, nodes: nodeDaemons(daemon), clock, box: loadSecretBox(tempDir) };
  })
  .extend('cli', async ({ deps }) => {
    /** Runs a command; what it printed (or its error's message) and whether it failed. */
    return async (...argv: string[]): Promise<{ out: string; failed: boolean }> => {
      try {
        return { out: JSON.stringify(await runCli(argv, deps)), failed: false };
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        return { out: error.message, failed: true };
      }
    };
  });

/** dbhost:create's arguments for an account on the test instance. */
function hostArgs(name: string, username: string, password: string): string[] {
  const { host, port } = mariadb();
  return ['dbhost:create', '--name', name, '--host', host, '--port', String(port), '--username', username, '--password', password];
}

async function makeAccount(username: string, password: string, privileges: string): Promise<void> {
  await withHost(mariadb(), async (conn) => {
    await conn.query('CREATE USER ?@? IDENTIFIED BY ?', [username, '%', password]);
    await conn.query(`GRANT ${privileges} ON *.* TO ?@?`, [username, '%']);
  });
}

describe('database hosts from the admin CLI', () => {
  it('checks the account, stores its password sealed and never prints it', async ({ cli, database: db }) => {
    await makeAccount('panel_admin', 'Adm1n-pass-word', 'ALL PRIVILEGES');
    await withHost(mariadb(), (conn) => conn.query('GRANT GRANT OPTION ON *.* TO ?@?', ['panel_admin', '%']));
    const created = await cli(...hostArgs('main', 'panel_admin', 'Adm1n-pass-word'), '--max-databases', '5', '--max-connections-per-user', '4');
    expect(created.failed).toBe(false);
    expect(JSON.parse(created.out)).toEqual({
      id: 1,
      name: 'main',
      host: mariadb().host,
      port: mariadb().port,
      username: 'panel_admin',
      max_databases: 5,
      max_connections_per_user: 4,
      node_id: null,
      databases: 0,
    });
    const row = await db.selectFrom('database_hosts').selectAll().executeTakeFirstOrThrow();
    expect(isSealed(row.password)).toBe(true);
    expect(JSON.stringify(row)).not.toContain('Adm1n-pass-word');

    const listed = await cli('dbhost:list', '--json');
    expect(JSON.parse(listed.out).hosts.map((h: { name: string }) => h.name)).toEqual(['main']);
    expect(listed.out).not.toContain('Adm1n-pass-word');
    expect((await cli(...hostArgs('main', 'panel_admin', 'Adm1n-pass-word'))).out).toBe('A database host named main exists already.');
    // Every user gets a limit of its own: none (0) is not one.
    expect(await cli(...hostArgs('other', 'panel_admin', 'Adm1n-pass-word'), '--max-connections-per-user', '0')).toEqual({
      failed: true,
      out: '--max-connections-per-user must be between 1 and 100000.',
    });
  });

  it('refuses an account without GRANT OPTION, and a wrong password, naming no password', async ({ cli, database: db }) => {
    await makeAccount('no_grant', 'NoGrant-pass-1', 'CREATE, DROP, CREATE USER');
    const refused = await cli(...hostArgs('weak', 'no_grant', 'NoGrant-pass-1'));
    expect(refused).toEqual({
      failed: true,
      out: expect.stringMatching(
        /^no_grant on .+ lacks the global privilege GRANT OPTION \(it needs CREATE, DROP, CREATE USER, GRANT OPTION ON \*\.\*\)\.$/,
      ),
    });

    const wrong = await cli(...hostArgs('wrong', 'no_grant', 'Not-the-password-9'));
    expect(wrong.failed).toBe(true);
    expect(wrong.out).toMatch(/^Could not connect to .+ as no_grant: Access denied for user 'no_grant'.* \(ER_ACCESS_DENIED_ERROR\)$/);
    expect(wrong.out).not.toContain('Not-the-password-9');
    expect(await db.selectFrom('database_hosts').selectAll().execute()).toEqual([]);
  });

  it('refuses to delete a host while databases live on it', async ({ cli, database: db }) => {
    const { username, password } = mariadb();
    await cli(...hostArgs('busy', username, password));
    await cli('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = JSON.parse((await cli('server:create', '--owner', 'o@example.com', '--name', 'Lobby')).out) as { id: number };
    const row = await serverDatabases.insert(db, {
      server_id: server.id,
      database_host_id: 1,
      database: `s${server.id}_x`,
      username: `u${server.id}_abcdefghij`,
      remote: '%',
      password: 'sealed elsewhere',
      max_connections: 10,
      created_at: '2026-03-01T12:00:00Z',
      updated_at: '2026-03-01T12:00:00Z',
    });
    expect(await cli('dbhost:delete', '--name', 'busy')).toEqual({
      failed: true,
      out: 'Database host busy still holds 1 database: delete them first.',
    });
    await serverDatabases.remove(db, row.id);
    expect(JSON.parse((await cli('dbhost:delete', '--name', 'busy')).out)).toMatchObject({ name: 'busy' });
    expect(JSON.parse((await cli('dbhost:list', '--json')).out)).toEqual({ hosts: [] });
    expect(await cli('dbhost:delete', '--name', 'busy')).toEqual({ failed: true, out: 'No database host named busy.' });
  });
});

describe('database hosts at start', () => {
  it('registers PANEL_DB_HOST_URL as the host default, and updates it', async ({ database: db, tempDir }) => {
    const { host, port, username, password } = mariadb();
    const box = loadSecretBox(tempDir);
    const url = `mysql://${encodeURIComponent(username)}:${encodeURIComponent(password)}@${host}:${port}`;
    const config = testConfig({ dataDir: tempDir, dbHostUrl: url });
    const now = new Date('2026-03-01T12:00:00Z');
    const first = await setUpDatabaseHosts(db, box, config, now);
    expect(first.message).toBe(`Database host "default" is ${username}@${host}:${port} (PANEL_DB_HOST_URL).`);
    expect(first.message).not.toContain(password);
    await setUpDatabaseHosts(db, box, config, now);
    const rows = await db.selectFrom('database_hosts').selectAll().execute();
    expect(rows.map((r) => [r.name, r.port, box.open(r.password)])).toEqual([['default', port, password]]);

    const bad = setUpDatabaseHosts(db, box, testConfig({ dataDir: tempDir, dbHostUrl: `mysql://${username}:Wrong-pw-77@${host}:${port}` }), now);
    await expect(bad).rejects.toThrow(/^Could not connect to .*Access denied/);
    await expect(bad).rejects.not.toThrow(/Wrong-pw-77/);
  });

  it('says when the managed MariaDB is turned off', async ({ database: db, tempDir }) => {
    const result = await setUpDatabaseHosts(db, loadSecretBox(tempDir), testConfig({ dataDir: tempDir, managedMariadb: false }), new Date());
    expect(result).toEqual({ message: 'Managed MariaDB turned off (PANEL_MANAGED_MARIADB=false).' });
    expect(fs.existsSync(path.join(tempDir, 'mariadb'))).toBe(false);
  });

  it(
    'starts a managed MariaDB on an empty data dir, registers it as default, and again from its files after a stop',
    { timeout: 120_000 },
    async ({ database: db, tempDir }) => {
      const box = loadSecretBox(tempDir);
      const config = testConfig({ dataDir: tempDir, mariadbPort: await freePort() });
      const started = await setUpDatabaseHosts(db, box, config, new Date());
      try {
        expect(started.message).toBe(
          `Managed MariaDB started on 127.0.0.1:${config.mariadbPort} (data in ${path.join(tempDir, 'mariadb')}), database host "default".`,
        );
        const row = await db.selectFrom('database_hosts').selectAll().executeTakeFirstOrThrow();
        expect(row).toMatchObject({ name: 'default', host: '127.0.0.1', port: config.mariadbPort, username: 'root' });
        const password = box.open(row.password);
        expect(password).toMatch(/^[A-Za-z0-9]{32}$/);
        // Root needs the generated password, also on the socket: no account is left without one.
        await expect(mysql.createConnection({ socketPath: started.managed?.socket, user: 'root', password: '' })).rejects.toMatchObject({
          code: 'ER_ACCESS_DENIED_ERROR',
        });
        const conn = await mysql.createConnection({ host: '127.0.0.1', port: config.mariadbPort, user: 'root', password: password ?? '' });
        await conn.end();
      } finally {
        await started.managed?.stop();
      }
      await expect(mysql.createConnection({ host: '127.0.0.1', port: config.mariadbPort, user: 'root' })).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });

      const again = await setUpDatabaseHosts(db, box, config, new Date());
      try {
        expect(again.managed).toBeDefined();
        expect(await db.selectFrom('database_hosts').select('name').execute()).toEqual([{ name: 'default' }]);
      } finally {
        await again.managed?.stop();
      }

      // PANEL_MARIADB_PORT changed: the same instance moves, and the host (its databases with it) follows.
      const before = await db.selectFrom('database_hosts').select(['id', 'port']).executeTakeFirstOrThrow();
      const moved = testConfig({ dataDir: tempDir, mariadbPort: await freePort() });
      const third = await setUpDatabaseHosts(db, box, moved, new Date());
      try {
        expect(third.message).toContain(`Managed MariaDB started on 127.0.0.1:${moved.mariadbPort}`);
        expect(await db.selectFrom('database_hosts').select(['id', 'port']).execute()).toEqual([{ id: before.id, port: moved.mariadbPort }]);
      } finally {
        await third.managed?.stop();
      }
    },
  );

  it('does not let the managed MariaDB outlive a killed panel', { timeout: 120_000 }, async ({ tempDir }) => {
    // A panel process that starts its MariaDB and is then killed outright (no shutdown code runs).
    const script = path.join(tempDir, 'killed-panel.mts');
    fs.writeFileSync(
      script,
      `import { startManagedMariadb } from ${JSON.stringify(path.resolve('server/services/managed-mariadb.ts'))};
import { loadSecretBox } from ${JSON.stringify(path.resolve('server/lib/secret-box.ts'))};
await startManagedMariadb({ dir: ${JSON.stringify(path.join(tempDir, 'mariadb'))}, port: ${await freePort()}, box: loadSecretBox(${JSON.stringify(tempDir)}) });
process.kill(process.pid, 'SIGKILL');
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 90_000 });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const pid = Number(fs.readFileSync(path.join(tempDir, 'mariadb', 'mariadb.pid'), 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && alive(); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive()).toBe(false);
    expect(fs.readFileSync(path.join(tempDir, 'mariadb', 'error.log'), 'utf8')).toMatch(/Shutdown complete/);
  });

  it('stops an instance its pid file names that still runs, and starts afresh on the same data', { timeout: 120_000 }, async ({ tempDir }) => {
    const box = loadSecretBox(tempDir);
    const dir = path.join(tempDir, 'mariadb');
    const port = await freePort();
    const stale = await startManagedMariadb({ dir, port, box });
    const stalePid = Number(fs.readFileSync(path.join(dir, 'mariadb.pid'), 'utf8'));
    const fresh = await startManagedMariadb({ dir, port, box });
    try {
      const pid = Number(fs.readFileSync(path.join(dir, 'mariadb.pid'), 'utf8'));
      expect(pid).not.toBe(stalePid);
      expect(() => process.kill(stalePid, 0)).toThrow();
      expect(fresh.access.password).toBe(stale.access.password);
      const { host, port: p, password } = fresh.access;
      await (await mysql.createConnection({ host, port: p, user: 'root', password })).end();
    } finally {
      await fresh.stop();
      await stale.stop();
    }
  });
});
