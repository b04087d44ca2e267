import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { localDaemon } from '../services/local-node';
import { nodeDaemons } from '../services/node-daemons';
import { controlSocketPath, listenForCli, panelListening, viaRunningPanel } from '../services/panel-control';
import { fixedClock } from '../lib/time';
import { loadSecretBox } from '../lib/secret-box';
import { runCli, textOf, type CliDeps } from './commands';
import { test } from '../test/fixtures';
import { cliFailure, cliRunner } from '../test/cli-support';

// Issue 22 #13: the CLI lists, changes and deletes. Every command here was unknown before.
const it = test
  .extend('deps', async ({ tempDir, database }): Promise<CliDeps> => {
    const clock = fixedClock('2026-03-01T12:00:00Z');
    const daemon = localDaemon(database, { dataDir: tempDir, clock, maxUploadBytes: 1024 * 1024, allowUnlimitedServers: true });
    // Ports of this file's own: a server it starts binds its port on the host, beside other files' servers.
    return {
      db: database,
      nodes: nodeDaemons(daemon, loadSecretBox(tempDir)),
      clock,
      box: loadSecretBox(tempDir),
      ports: { start: 26200, end: 26299 },
    };
  })
  .extend('run', async ({ deps }) => cliRunner(deps))
  .extend('failure', async ({ deps }) => cliFailure(deps));

describe('admin CLI: list, change, delete', () => {
  it('lists users and servers as tables, JSON with --json, and says how to add them when empty', async ({ run }) => {
    expect(textOf(await run('user:list'))).toMatch(/No users yet[\s\S]*user:create[\s\S]*server:create/);
    expect(textOf(await run('server:list'))).toMatch(/No servers yet[\s\S]*server:create --owner/);
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const server = await run('server:create', '--owner', 'o@example.com', '--name', 'Lobby');
    const users = await run('user:list');
    expect(textOf(users)).toMatch(/^ID\s+USERNAME\s+EMAIL[\s\S]*o@example\.com/);
    expect(users.users).toEqual([expect.objectContaining({ email: 'o@example.com', servers: 1, subuser_of: 0, admin: false })]);
    expect(textOf(await run('user:list', '--json'))).toBeUndefined();
    const servers = await run('server:list');
    expect(textOf(servers)).toMatch(new RegExp(`${String(server.identifier)}\\s+Lobby\\s+o@example\\.com\\s+Demo game`));
    expect(servers.servers).toEqual([expect.objectContaining({ identifier: server.identifier, memory: 1024, owner: 'o@example.com' })]);
  });

  it('changes limits, owner and image, validated, logged with the --as admin as actor', async ({ run, failure, database: db }) => {
    await run('user:create', '--email', 'root@example.com', '--username', 'root', '--password', 'pw-123456', '--admin');
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const id = String((await run('server:create', '--owner', 'o@example.com', '--name', 'S')).identifier);
    const out = await run('server:update', '--server', id, '--memory', '2048', '--owner', 'root@example.com', '--as', 'root');
    expect(out.changes).toEqual([
      { field: 'memory', old: '1024', new: '2048' },
      { field: 'owner', old: 'o@example.com', new: 'root@example.com' },
    ]);
    expect(out.owner).toBe('root@example.com');
    expect((await failure(['server:update', '--server', id, '--image', 'evil/image'])).exitCode).toBe(2);
    expect((await failure(['server:update', '--server', id, '--memory', 'lots'])).message).toMatch(/whole number/);
    expect((await failure(['server:update', '--server', id])).message).toMatch(/Nothing to change/);
    expect((await failure(['server:update', '--server', id, '--cpu', '50', '--as', 'o'])).message).toMatch(/not a root admin/);
    const log = await db.selectFrom('activity_logs').select(['event', 'actor_id', 'properties']).execute();
    expect(log).toEqual([{ event: 'server:settings.build', actor_id: 1, properties: expect.stringContaining('memory from 1024 to 2048') }]);
  });

  it('refuses to delete a user who owns servers unless told, then removes their places and keys', async ({ run, failure, database: db }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    await run('user:create', '--email', 'heir@example.com', '--username', 'heir', '--password', 'pw-123456');
    const id = String((await run('server:create', '--owner', 'o@example.com', '--name', 'S')).identifier);
    await run('subuser:add', '--server', id, '--email', 'heir@example.com', '--permissions', 'file.read');
    await run('apikey:create', '--email', 'o@example.com');
    expect((await failure(['user:delete', '--email', 'o@example.com'])).message).toMatch(
      /owns 1 server\(s\).*--delete-servers or --transfer-servers-to/,
    );
    const out = await run('user:delete', '--email', 'o@example.com', '--transfer-servers-to', 'heir@example.com');
    expect(out).toMatchObject({ deleted: 'o@example.com', servers_transferred: [id] });
    expect(await db.selectFrom('users').select('email').execute()).toEqual([{ email: 'heir@example.com' }]);
    expect(await db.selectFrom('api_keys').select('id').execute()).toEqual([]);
    // The heir owns it now, so their subuser place went.
    expect(await db.selectFrom('subusers').select('id').execute()).toEqual([]);
  });

  it('removes a subuser and logs it on the server', async ({ run, failure, database: db }) => {
    await run('user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456');
    const id = String((await run('server:create', '--owner', 'o@example.com', '--name', 'S')).identifier);
    await run('subuser:add', '--server', id, '--email', 'f@example.com', '--permissions', 'file.read');
    expect(await run('subuser:remove', '--server', id, '--email', 'f@example.com')).toMatchObject({ removed: 'f@example.com', server: id });
    expect(await db.selectFrom('subusers').select('id').execute()).toEqual([]);
    expect((await failure(['subuser:remove', '--server', id, '--email', 'f@example.com'])).message).toMatch(/is not a subuser/);
    const events = (await db.selectFrom('activity_logs').select('event').orderBy('id').execute()).map((r) => r.event);
    expect(events).toEqual(['server:subuser.create', 'server:subuser.delete']);
  });

  it(
    'server:delete stops the server a running panel runs (through its socket) and removes its volume and row',
    { timeout: 60_000 },
    async ({ deps, run, tempDir, database: db }) => {
      // The "panel": its own daemon on the same data dir, listening for the CLI.
      const panel = localDaemon(db, { dataDir: tempDir, clock: deps.clock, maxUploadBytes: 1024 * 1024, allowUnlimitedServers: true });
      const socket = controlSocketPath(tempDir);
      expect(await panelListening(socket)).toBe(false);
      const stop = await listenForCli(socket, panel);
      try {
        expect(await panelListening(socket)).toBe(true);
        const cliDeps = { ...deps, nodes: nodeDaemons(viaRunningPanel(deps.nodes.local, socket), deps.box) };
        await runCli(['user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456'], cliDeps);
        const server = (await runCli(['server:create', '--owner', 'o@example.com', '--name', 'S'], cliDeps)) as Record<string, unknown>;
        const uuid = String(server.uuid);
        const processes = panel.process;
        await processes.power(uuid, 'start');
        for (let i = 0; i < 250 && processes.state(uuid) !== 'running'; i += 1) await new Promise((r) => setTimeout(r, 20));
        expect(processes.state(uuid)).toBe('running');
        expect(await runCli(['server:delete', '--server', String(server.identifier)], cliDeps)).toMatchObject({
          deleted: server.identifier,
          databases_dropped: [],
        });
        expect(processes.state(uuid)).toBe('offline');
        expect(fs.existsSync(path.join(tempDir, 'volumes', uuid))).toBe(false);
        expect(await db.selectFrom('servers').select('id').execute()).toEqual([]);
        expect((await run('server:list')).servers).toEqual([]);
      } finally {
        await stop();
      }
      // A stopped panel's socket file, if one is left, answers nothing.
      expect(await panelListening(socket)).toBe(false);
    },
  );
  it(
    'server:status suspended reaches a running panel at once: its server stops (issue 24 §1: every change ends in a sync)',
    { timeout: 60_000 },
    async ({ deps, tempDir, database: db }) => {
      const panel = localDaemon(db, { dataDir: tempDir, clock: deps.clock, maxUploadBytes: 1024 * 1024, allowUnlimitedServers: true });
      const socket = controlSocketPath(tempDir);
      const stop = await listenForCli(socket, panel);
      try {
        const cliDeps = { ...deps, nodes: nodeDaemons(viaRunningPanel(deps.nodes.local, socket), deps.box) };
        await runCli(['user:create', '--email', 'o@example.com', '--username', 'o', '--password', 'pw-123456'], cliDeps);
        const server = (await runCli(['server:create', '--owner', 'o@example.com', '--name', 'S'], cliDeps)) as Record<string, unknown>;
        const uuid = String(server.uuid);
        await panel.process.power(uuid, 'start');
        for (let i = 0; i < 250 && panel.process.state(uuid) !== 'running'; i += 1) await new Promise((r) => setTimeout(r, 20));
        expect(panel.process.state(uuid)).toBe('running');
        // Nothing re-reads on a timer: only the sync the CLI hands the running panel tells its node.
        await runCli(['server:status', '--server', String(server.identifier), '--status', 'suspended'], cliDeps);
        for (let i = 0; i < 250 && panel.process.state(uuid) !== 'offline'; i += 1) await new Promise((r) => setTimeout(r, 20));
        expect(panel.process.state(uuid)).toBe('offline');
        await expect(panel.process.power(uuid, 'start')).rejects.toThrow(/suspended/);
      } finally {
        await panel.process.stopAll();
        await stop();
      }
    },
  );
});
