import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, onTestFailed } from 'vitest';
import { it } from './test/fixtures';
import { freePort } from './test/mariadb';

const tsx = path.resolve('node_modules/.bin/tsx');
/** The environment of a start: this data dir, any free port, no SPA build, no MariaDB, HOST only when given. */
function envFor(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PANEL_DATA_DIR: dataDir,
    PORT: '0',
    PANEL_SFTP_PORT: '0',
    AERIE_SKIP_BUILD: '1',
    LOG_LEVEL: 'silent',
    PANEL_MANAGED_MARIADB: 'false',
    ...extra,
  };
  if (extra.HOST === undefined) delete env.HOST;
  return env;
}

/** Starts `npm start`'s entry, waits until it listens, stops it, and returns what it printed. */
function startOnce(dataDir: string, extra: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['server/main.ts'], { env: envFor(dataDir, extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Aerie listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // A panel that never listens is not left behind when its test gives up.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(stuck);
      resolve(out);
    });
  });
}

describe('npm start', () => {
  it('creates the root admin of a real first start with a password printed once, in a private data dir', { timeout: 90_000 }, async ({ tempDir }) => {
    const dataDir = path.join(tempDir, 'data');
    const first = await startOnce(dataDir, { PANEL_SEED_DEMO: 'false' });
    const password = /password {2}(\S+)/.exec(first)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    // PORT=0: the box names the port really bound, as the panel's mailed links do (issue 22 polish).
    const signInAt = /Sign in at (\S+) with/.exec(first)?.[1];
    expect(signInAt).toMatch(/^http:\/\/localhost:[1-9]\d*$/);
    expect(first).toContain(`Aerie listening on ${signInAt} `);
    // Private to the panel; a root panel's servers' group may only pass through to their volumes.
    const dir = fs.statSync(dataDir);
    expect(dir.mode & 0o777).toBe(process.getuid?.() === 0 ? 0o710 : 0o700);
    if (process.getuid?.() === 0) expect([dir.uid, dir.gid]).toEqual([0, 988]);

    const second = await startOnce(dataDir, { PANEL_SEED_DEMO: 'false' });
    expect(second).toContain('Aerie listening on');
    expect(second).not.toContain(password);
    expect(second).not.toContain('Root admin created');
  });

  it('refuses to seed the demo on an address other machines reach, naming the flag that forces it', { timeout: 60_000 }, ({ tempDir }) => {
    const res = spawnSync(tsx, ['server/main.ts'], { env: envFor(tempDir, { HOST: '0.0.0.0' }), encoding: 'utf8', timeout: 30_000 });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Refusing to seed demo accounts[\s\S]*PANEL_SEED_DEMO_FORCE=true/);
  });

  it(
    'Ctrl-C in its terminal stops a running game with its stop command (the world saved), and the next start runs it again (issue 22 #1, #2)',
    { timeout: 120_000 },
    async ({ tempDir }) => {
      const dataDir = path.join(tempDir, 'data');
      await startOnce(dataDir, {});
      const db = new SQLite(path.join(dataDir, 'panel.sqlite'), { readonly: true });
      const { uuid } = db.prepare('SELECT uuid FROM servers WHERE status IS NULL ORDER BY id LIMIT 1').get() as { uuid: string };
      db.close();
      // As if it ran when the panel last stopped: the next start runs it again (the default).
      fs.writeFileSync(path.join(dataDir, 'logs', 'running.json'), JSON.stringify([uuid]));
      const log = path.join(dataDir, 'logs', `${uuid}.log`);
      // In a process group of its own, as a panel in a terminal is: Ctrl-C signals the whole group.
      const child = spawn(tsx, ['server/main.ts'], { env: envFor(dataDir, {}), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let out = '';
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // A failed wait must not leave the panel (and its server) running after the test.
      onTestFailed(() => {
        if (child.exitCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL');
      });
      for (const deadline = Date.now() + 60_000; !(fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('For help'));) {
        if (Date.now() > deadline) throw new Error(`the game did not start again: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out).toContain('Started again 1 server(s) that were running when the panel stopped.');
      expect(fs.readFileSync(log, 'utf8')).toContain('[Panel] The panel was restarted: this server was running, so it was started again.');
      process.kill(-(child.pid ?? 0), 'SIGINT');
      await exited;
      expect(out).toContain('Stopping 1 running server(s) with their stop commands');
      // Its stop command ran: the game saved its world (before, its sandbox died of the SIGINT first).
      expect(fs.readFileSync(log, 'utf8')).toMatch(/Saving worlds[\s\S]*Goodbye/);
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'logs', 'running.json'), 'utf8'))).toEqual([uuid]);
    },
  );

  it('marks failed at start the backups and restores the last run left unfinished', { timeout: 120_000 }, async ({ tempDir }) => {
    const dataDir = path.join(tempDir, 'data');
    await startOnce(dataDir, {});
    const file = path.join(dataDir, 'panel.sqlite');
    let db = new SQLite(file);
    const server = db.prepare('SELECT id FROM servers ORDER BY id LIMIT 1').get() as { id: number };
    const uuid = randomUUID();
    db.prepare("INSERT INTO backups (uuid, server_id, name, created_at) VALUES (?, ?, 'Cut off', ?)").run(uuid, server.id, new Date().toISOString());
    db.prepare("UPDATE servers SET status = 'restoring_backup' WHERE id = ?").run(server.id);
    db.close();

    const out = await startOnce(dataDir, {});
    expect(out).toContain('Marked failed what the last run left unfinished: 1 backup(s), 1 restore(s), 0 transfer(s).');
    db = new SQLite(file, { readonly: true });
    try {
      expect(db.prepare('SELECT is_successful, completed_at FROM backups WHERE uuid = ?').get(uuid)).toMatchObject({
        is_successful: 0,
        completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(db.prepare('SELECT status FROM servers WHERE id = ?').get(server.id)).toEqual({ status: null });
      const events = db
        .prepare("SELECT event FROM activity_logs WHERE event IN ('server:backup.fail', 'server:backup.restore-failed') ORDER BY id")
        .all();
      expect(events).toEqual([{ event: 'server:backup.fail' }, { event: 'server:backup.restore-failed' }]);
    } finally {
      db.close();
    }
  });

  it('starts a managed MariaDB with the panel on an empty data dir and stops it with the panel', { timeout: 90_000 }, async ({ tempDir }) => {
    const dataDir = path.join(tempDir, 'data');
    const port = await freePort();
    const out = await startOnce(dataDir, { PANEL_SEED_DEMO: 'false', PANEL_MANAGED_MARIADB: 'true', PANEL_MARIADB_PORT: String(port) });
    expect(out).toContain(`Managed MariaDB started on 127.0.0.1:${port} (data in ${path.join(dataDir, 'mariadb')}), database host "default".`);
    // The panel stopped (SIGTERM): so did its MariaDB, cleanly (its shell shuts it down as the panel goes, so it may finish just after).
    const log = () => fs.readFileSync(path.join(dataDir, 'mariadb', 'error.log'), 'utf8');
    for (let i = 0; i < 100 && !/Shutdown complete\s*$/.test(log()); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(log()).toMatch(/Shutdown complete\s*$/);
    const hosts = spawnSync(tsx, ['server/cli.ts', 'dbhost:list', '--json'], { env: envFor(dataDir, {}), encoding: 'utf8' });
    expect(JSON.parse(hosts.stdout)).toEqual({
      hosts: [
        {
          id: 1,
          name: 'default',
          host: '127.0.0.1',
          port,
          username: 'root',
          max_databases: null,
          max_connections_per_user: 10,
          node_id: null,
          databases: 0,
        },
      ],
    });

    const off = await startOnce(dataDir, { PANEL_SEED_DEMO: 'false' });
    expect(off).toContain('Managed MariaDB turned off (PANEL_MANAGED_MARIADB=false).');
  });
});
