import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import type { ServerRow, UserRow } from '../db/schema';
import { findEgg, interruptedInstalls, resumeInstalls } from '../services/servers';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { listen } from '../test/raw-http';

/*
 * settings/reinstall against the real local node: the server stopped, its egg's install script
 * run in the sandbox (the demo game's lays its program out again), the status while it runs and
 * after, install output on the console socket for admins only, and a failing script.
 */

interface Frame {
  event: string;
  args?: string[];
}

/** An authenticated console socket of `user` on `server`: every frame it receives. */
async function consoleOf(panel: TestPanel, port: number, server: ServerRow, user: UserRow, opened: WebSocket[]) {
  const res = await panel.app.inject({
    method: 'GET',
    url: `/api/client/servers/${server.uuid}/websocket`,
    headers: { ...(await panel.bearerHeaders(user)), host: `127.0.0.1:${port}` },
  });
  expect(res.statusCode).toBe(200);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/servers/${server.uuid}/ws`, { origin: `http://127.0.0.1:${port}` });
  opened.push(ws);
  ws.on('error', () => undefined);
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ event: 'auth', args: [(res.json().data as { token: string }).token] }));
  await eventually(() => frames.some((f) => f.event === 'auth success'));
  return {
    frames,
    lines: (event: string) => frames.filter((f) => f.event === event).map((f) => f.args?.[0] ?? ''),
    send: (event: string) => ws.send(JSON.stringify({ event, args: [] })),
  };
}

const it = test.extend('setup', async ({ panel }, { onCleanup }) => {
  const opened: WebSocket[] = [];
  onCleanup(async () => {
    for (const ws of opened) ws.terminate();
    await panel.daemon.process.stopAll();
  });
  const owner = await panel.user();
  const admin = await panel.user({ admin: true });
  const headers = await panel.bearerHeaders(owner);
  const port = await listen(panel.app);
  const status = async (server: ServerRow) =>
    (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirstOrThrow()).status;
  const reinstall = (server: ServerRow, as = headers) =>
    panel.app.inject({ method: 'POST', url: `/api/client/servers/${server.uuid}/settings/reinstall`, headers: as });
  const sockets = (server: ServerRow) => Promise.all([consoleOf(panel, port, server, admin, opened), consoleOf(panel, port, server, owner, opened)]);
  const socketOf = (server: ServerRow, user: UserRow) => consoleOf(panel, port, server, user, opened);
  return { owner, admin, headers, status, reinstall, sockets, socketOf };
});

describe('POST settings/reinstall', () => {
  it(
    'stops the running demo game, lays its program out again, keeps other files, and streams the output to admins only',
    { timeout: 30_000 },
    async ({ panel, setup }) => {
      const demo = await findEgg(panel.db, 'Demo game');
      const server = await panel.server(setup.owner, { eggId: demo?.id });
      const volume = panel.daemon.volumePath(server.uuid);
      // Created by the same install script.
      expect(fs.readFileSync(path.join(volume, 'demo-game.mjs'), 'utf8')).toContain('For help');

      const start = await panel.app.inject({
        method: 'POST',
        url: `/api/client/servers/${server.uuid}/power`,
        headers: setup.headers,
        payload: { signal: 'start' },
      });
      expect(start.statusCode).toBe(204);
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');
      const [admin, owner] = await setup.sockets(server);
      const helper = await panel.user();
      await panel.subuser(server, helper, ['websocket.connect', 'control.console', 'settings.reinstall']);
      const subuser = await setup.socketOf(server, helper);
      fs.rmSync(path.join(volume, 'demo-game.mjs'));
      fs.writeFileSync(path.join(volume, 'world.txt'), 'mine');

      const res = await setup.reinstall(server);
      // Answered once begun; the script runs on, and its end clears the status.
      expect(res.statusCode).toBe(204);
      expect(await setup.status(server)).toBe('installing');
      await eventually(async () => (await setup.status(server)) === null);
      expect(panel.daemon.process.state(server.uuid)).toBe('offline');
      expect(fs.existsSync(path.join(volume, 'demo-game.mjs'))).toBe(true);
      expect(fs.readFileSync(path.join(volume, 'world.txt'), 'utf8')).toBe('mine');
      await eventually(() => admin.lines('install output').includes('Installed demo-game.mjs'));
      // The script runs with the egg's hidden variables too: its output is the admins' (as the reference).
      expect(owner.lines('install output')).toEqual([]);
      expect(subuser.lines('install output')).toEqual([]);
      expect(owner.frames.some((f) => f.event === 'status' && f.args?.[0] === 'offline')).toBe(true);
      const events = await panel.db.selectFrom('activity_logs').select('event').orderBy('id').execute();
      expect(events.map((e) => e.event)).toEqual(['server:power.start', 'server:reinstall']);

      // It starts again from the program the script placed.
      const again = await panel.app.inject({
        method: 'POST',
        url: `/api/client/servers/${server.uuid}/power`,
        headers: setup.headers,
        payload: { signal: 'start' },
      });
      expect(again.statusCode).toBe(204);
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');
    },
  );

  it(
    'is installing while the script runs (other routes 409), and a failing script ends in reinstall_failed',
    { timeout: 30_000 },
    async ({ panel, setup }) => {
      const server = await panel.server(setup.owner);
      await panel.db
        .updateTable('eggs')
        .set({ script_install: 'echo preparing; sleep 1; echo "download failed" >&2; exit 3' })
        .where('id', '=', server.egg_id)
        .execute();
      const [admin] = await setup.sockets(server);

      // The script sleeps a second: the answer comes before it ends.
      expect((await setup.reinstall(server)).statusCode).toBe(204);
      expect(await setup.status(server)).toBe('installing');
      const list = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${server.uuid}/files/list`, headers: setup.headers });
      expect(list.statusCode).toBe(409);
      expect((await setup.reinstall(server)).statusCode).toBe(409);
      await eventually(async () => (await setup.status(server)) === 'reinstall_failed');
      await eventually(() => admin.lines('install output').includes('download failed'));
      expect(admin.lines('install output')).toContain('preparing');
    },
  );

  // Issue 22 #7: the toast sent the owner to a console that showed nothing of the failed install.
  it(
    "replays a failed reinstall's output, made plain, to admins who open the console after it; not to the owner or a subuser",
    { timeout: 30_000 },
    async ({ panel, setup }) => {
      const server = await panel.server(setup.owner);
      const hostile = [
        String.raw`printf '\033[2J\033]52;c;aGk=\007\033[1Afetching\r\033[31mforged\033[0m\n'`,
        String.raw`head -c 20000 /dev/zero | tr '\0' y; echo`,
        String.raw`printf 'bin\377\376ary\000end\n'`,
        'echo "download failed" >&2; exit 3',
      ].join('\n');
      await panel.db.updateTable('eggs').set({ script_install: hostile }).where('id', '=', server.egg_id).execute();
      expect((await setup.reinstall(server)).statusCode).toBe(204);
      await eventually(async () => (await setup.status(server)) === 'reinstall_failed');

      const helper = await panel.user();
      await panel.subuser(server, helper, ['websocket.connect', 'control.console', 'settings.reinstall']);
      const [admin, owner, subuser] = [...(await setup.sockets(server)), await setup.socketOf(server, helper)];
      for (const socket of [admin, owner, subuser]) socket.send('send logs');
      for (const socket of [admin]) {
        await eventually(() => socket.lines('daemon message').includes('End of the install output.'));
        expect(socket.lines('daemon message')[0]).toMatch(/^Install output: the last install \(started .* UTC\) failed\. Its output:$/);
        const output = socket.lines('install output');
        expect(output[0]).toBe('forged');
        expect(output[1]).toBe('y'.repeat(8192));
        expect(output[2]).toBe('bin\uFFFD\uFFFDary\uFFFDend');
        expect(output.at(-1)).toBe('download failed');
        // eslint-disable-next-line no-control-regex -- no control character may reach a console
        expect(output.join('')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
      }
      for (const socket of [owner, subuser]) {
        await eventually(() => socket.frames.some((f) => f.event === 'status'));
        await new Promise((r) => setTimeout(r, 200));
        expect(socket.lines('install output')).toEqual([]);
        expect(socket.lines('daemon message')).toEqual([]);
      }
      // Kept in the node's data dir, not in the volume the tenant writes.
      expect(fs.readFileSync(path.join(panel.dataDir, 'logs', `${server.uuid}.install.log`), 'utf8')).toMatch(/^forged\n/);
      expect(fs.readdirSync(panel.daemon.volumePath(server.uuid))).not.toContain(`${server.uuid}.install.log`);
      // Someone with no relation to the server gets no console at all.
      const stranger = await panel.user();
      const res = await panel.app.inject({
        method: 'GET',
        url: `/api/client/servers/${server.uuid}/websocket`,
        headers: await panel.bearerHeaders(stranger),
      });
      expect(res.statusCode).toBe(404);

      // A reinstall that succeeds is not replayed.
      await panel.db.updateTable('eggs').set({ script_install: 'echo fine' }).where('id', '=', server.egg_id).execute();
      expect((await setup.reinstall(server)).statusCode).toBe(204);
      await eventually(async () => (await setup.status(server)) === null);
      const later = await setup.socketOf(server, setup.admin);
      later.send('send logs');
      await eventually(() => later.frames.some((f) => f.event === 'status'));
      await new Promise((r) => setTimeout(r, 200));
      expect(later.lines('install output')).toEqual([]);
    },
  );

  it(
    "runs the script with the egg's entrypoint when the node has it, and says so when it falls back to /bin/sh",
    { timeout: 30_000 },
    async ({ panel, setup }) => {
      const server = await panel.server(setup.owner);
      const [admin] = await setup.sockets(server);
      const egg = (entry: string) =>
        panel.db
          .updateTable('eggs')
          .set({ script_entry: entry, script_install: '[[ -n "$BASH_VERSION" ]] && echo "run by bash" || echo "run by sh"' })
          .where('id', '=', server.egg_id)
          .execute();
      await egg('bash');
      expect((await setup.reinstall(server)).statusCode).toBe(204);
      await eventually(() => admin.lines('install output').includes('run by bash'));
      await eventually(async () => (await setup.status(server)) === null);

      await egg('zsh-not-here');
      expect((await setup.reinstall(server)).statusCode).toBe(204);
      await eventually(() => admin.lines('install output').includes('run by sh'));
      expect(admin.lines('install output')).toContain('This node has no zsh-not-here: the install script runs with /bin/sh.');
    },
  );

  it(
    "runs the script in the server's own sandbox: its volume at /mnt/server, nothing of another volume, the host or the panel's environment",
    { timeout: 30_000 },
    async ({ panel, setup }) => {
      const server = await panel.server(setup.owner);
      const other = await panel.server(setup.owner);
      const otherVolume = panel.daemon.volumePath(other.uuid);
      fs.writeFileSync(path.join(otherVolume, 'secret.txt'), 'OTHER-TENANT-SECRET');
      const outside = path.join(panel.dataDir, 'escaped.txt');
      const script = [
        `cat ${otherVolume}/secret.txt || echo "other volume DENIED"`,
        `touch ${outside} || echo "host DENIED"`,
        'echo placed > /mnt/server/placed.txt',
        'env',
      ].join('\n');
      await panel.db.updateTable('eggs').set({ script_install: script }).where('id', '=', server.egg_id).execute();
      const [admin] = await setup.sockets(server);
      process.env.AERIE_INSTALL_TEST_SECRET = 'PANEL-ENVIRONMENT-SECRET';
      try {
        expect((await setup.reinstall(server)).statusCode).toBe(204);
        await eventually(async () => (await setup.status(server)) === null);
      } finally {
        delete process.env.AERIE_INSTALL_TEST_SECRET;
      }
      const output = admin.lines('install output');
      expect(output).toEqual(expect.arrayContaining(['other volume DENIED', 'host DENIED']));
      expect(output.join('\n')).not.toMatch(/OTHER-TENANT-SECRET|PANEL-ENVIRONMENT-SECRET/);
      expect(fs.existsSync(outside)).toBe(false);
      expect(fs.readFileSync(path.join(panel.daemon.volumePath(server.uuid), 'placed.txt'), 'utf8')).toBe('placed\n');
    },
  );

  it('runs again at start an install the last shutdown interrupted, on local servers only', { timeout: 30_000 }, async ({ panel, setup }) => {
    const demo = await findEgg(panel.db, 'Demo game');
    const cut = await panel.server(setup.owner, { eggId: demo?.id });
    const volume = panel.daemon.volumePath(cut.uuid);
    fs.rmSync(path.join(volume, 'demo-game.mjs'));
    fs.writeFileSync(path.join(volume, 'world.txt'), 'mine');
    await panel.db.updateTable('servers').set({ status: 'installing' }).where('id', '=', cut.id).execute();
    const elsewhere = await panel.server(setup.owner);
    const node = await panel.db
      .insertInto('nodes')
      .values({
        uuid: '5f0b2a4c-2f4e-4f7b-8d7a-0c2d9a6b1e12',
        name: 'node-eu-2',
        fqdn: 'node2.example.com',
        sftp_port: 2022,
        maintenance_mode: 0,
        daemon_base_url: 'https://node2.example.com:8080',
        daemon_token: 'remote-node-key',
        daemon_token_id: 'remotenodeid0001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await panel.db.updateTable('servers').set({ status: 'installing', node_id: node.id }).where('id', '=', elsewhere.id).execute();

    const interrupted = await interruptedInstalls(panel.db);
    expect(interrupted.map((s) => s.uuid)).toEqual([cut.uuid]);
    await resumeInstalls(panel.nodes, interrupted);
    await eventually(async () => (await setup.status(cut)) === null);
    expect(fs.existsSync(path.join(volume, 'demo-game.mjs'))).toBe(true);
    expect(fs.readFileSync(path.join(volume, 'world.txt'), 'utf8')).toBe('mine');
    // A remote node's install is that node's to report.
    expect(await setup.status(elsewhere)).toBe('installing');
  });

  it('takes settings.reinstall; 404 for another user; nothing runs on a refusal', async ({ panel, setup }) => {
    const server = await panel.server(setup.owner);
    const renamer = await panel.user();
    await panel.subuser(server, renamer, ['settings.rename', 'control.*']);
    const reinstaller = await panel.user();
    await panel.subuser(server, reinstaller, ['settings.reinstall']);
    const stranger = await panel.user();
    expect((await setup.reinstall(server, await panel.bearerHeaders(renamer))).statusCode).toBe(403);
    expect((await setup.reinstall(server, await panel.bearerHeaders(stranger))).statusCode).toBe(404);
    expect(await setup.status(server)).toBeNull();
    expect((await setup.reinstall(server, await panel.bearerHeaders(reinstaller))).statusCode).toBe(204);
    await eventually(async () => (await setup.status(server)) === null);
    const events = await panel.db.selectFrom('activity_logs').select('event').execute();
    expect(events.map((e) => e.event)).toEqual(['server:reinstall']);
  });
});
