import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { newKeyPair } from '../daemon/local/sftp-keys';
import { backups } from '../db/repos';
import { addSshKey } from '../services/ssh-keys';
import { signNodeToken } from '../services/node-tokens';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { startNode, type RunningNode } from '../test/node-support';
import { connect } from '../test/sftp-support';

/*
 * Aerie's node on its own, the parts a browser and the panel's remote API see: the console socket
 * with a panel-signed token and its Origin check, power and commands, a backup reported to the
 * panel, SFTP signed in through the panel, and a clean shutdown.
 */

type Frame = { event: string; args?: string[] };

async function installed(panel: TestPanel, remote: RunningNode) {
  const owner = await panel.user();
  const server = await remote.server(owner);
  expect((await remote.call('POST', '/api/servers', { uuid: server.uuid })).status).toBe(202);
  const status = async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirst())?.status;
  await eventually(async () => (await status()) === null, 60_000);
  return { owner, server };
}

const it = test.extend('node', async ({ panel }, { onCleanup }) => {
  const remote = await startNode(panel, onCleanup);
  return { remote, ...(await installed(panel, remote)) };
});

function openSocket(remote: RunningNode, server: string, origin: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  const ws = new WebSocket(`${remote.url.replace('http', 'ws')}/api/servers/${server}/ws`, { origin });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

it(
  'runs the server: power start, a command, and its output on the console socket with a panel-signed token',
  { timeout: 120_000 },
  async ({ panel, node }) => {
    const { remote, owner, server } = node;
    const uuid = server.uuid;
    // Stopped: Wings' 502.
    const early = await remote.call('POST', `/api/servers/${uuid}/commands`, { commands: ['help'] });
    expect(early.status).toBe(502);
    expect(((await early.json()) as { error: string }).error).toBe('Cannot send commands to a stopped server instance.');

    const { ws, frames } = await openSocket(remote, uuid, remote.panelUrl);
    const token = await signNodeToken({
      node: remote.node,
      key: panel.nodes.tokenOf(remote.node),
      user: owner,
      serverUuid: uuid,
      scope: 'websocket',
      claims: { permissions: ['*'] },
      ttlSeconds: 600,
      panelOrigin: remote.panelUrl,
      // `iat` has whole seconds: a token issued in the second of a revocation or of the node's start counts
      // as issued before it and is refused (the safe side), so this one is a second ahead.
      now: new Date(Date.now() + 1000),
    });
    ws.send(JSON.stringify({ event: 'auth', args: [token] }));
    // What the socket said and what the node printed, should the answer not come (a busy CI machine).
    await eventually(() => frames.some((f) => f.event === 'auth success'), 30_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; frames: ${JSON.stringify(frames)}; node: ${remote.output().slice(-2000)}`);
    });
    expect((await remote.call('POST', `/api/servers/${uuid}/power`, { action: 'start' })).status).toBe(202);
    await eventually(() => frames.some((f) => f.event === 'status' && f.args?.[0] === 'running'), 30_000);
    expect((await remote.call('POST', `/api/servers/${uuid}/commands`, { commands: ['say hello from the panel'] })).status).toBe(204);
    await eventually(() => frames.some((f) => f.event === 'console output' && (f.args?.[0] ?? '').includes('hello from the panel')), 10_000);
    const logs = (await (await remote.call('GET', `/api/servers/${uuid}/logs?size=100`)).json()) as { data: string[] };
    expect(logs.data.some((line) => line.includes('hello from the panel'))).toBe(true);
    expect((await remote.call('POST', `/api/servers/${uuid}/power`, { action: 'jump' })).status).toBe(422);
    ws.close();
    // SIGTERM stops the running server with its stop command and the node exits 0.
    expect(await remote.stop()).toBe(0);
    expect(remote.output()).toContain('SIGTERM received');
  },
);

it("refuses a console socket from a page that is not the panel's", { timeout: 120_000 }, async ({ node }) => {
  await expect(openSocket(node.remote, node.server.uuid, 'http://evil.example')).rejects.toThrow(/HTTP 403/);
  await expect(openSocket(node.remote, node.server.uuid, node.remote.panelUrl)).resolves.toBeDefined();
});

it('makes a backup and reports it to the panel: checksum and size', { timeout: 120_000 }, async ({ panel, node }) => {
  const backup = await backups.insert(panel.db, {
    uuid: randomUUID(),
    server_id: node.server.id,
    name: 'b1',
    ignored_files: [],
    is_locked: false,
    now: new Date(),
  });
  const res = await node.remote.call('POST', `/api/servers/${node.server.uuid}/backup`, { adapter: 'wings', uuid: backup.uuid, ignore: '' });
  expect(res.status).toBe(202);
  const row = async () => panel.db.selectFrom('backups').selectAll().where('id', '=', backup.id).executeTakeFirstOrThrow();
  await eventually(async () => (await row()).completed_at !== null, 30_000);
  const done = await row();
  expect(done.is_successful).toBe(1);
  expect(done.checksum).toMatch(/^sha1:[0-9a-f]{40}$/);
  expect(done.bytes).toBeGreaterThan(0);
  const missing = await node.remote.call('DELETE', `/api/servers/${node.server.uuid}/backup/${randomUUID()}`);
  expect(missing.status).toBe(404);
  expect(((await missing.json()) as { error: string }).error).toBe('The requested backup was not found on this server.');
  expect((await node.remote.call('DELETE', `/api/servers/${node.server.uuid}/backup/${backup.uuid}`)).status).toBe(204);
});

it('signs SFTP users in through the panel, and sends what they did to the panel as activity', { timeout: 120_000 }, async ({ panel, node }) => {
  const username = `${node.owner.username}.${node.server.uuid_short}`;
  await expect(connect(node.remote.sftpPort, { username, password: 'wrong password' })).rejects.toThrow();
  const { sftp, client } = await connect(node.remote.sftpPort, { username, password: 'correct horse battery' });
  const names = await new Promise<string[]>((resolve, reject) =>
    sftp.readdir('/', (error, list) => (error ? reject(error) : resolve(list.map((entry) => entry.filename)))),
  );
  expect(names).toContain('demo-game.mjs');
  await new Promise<void>((resolve, reject) => sftp.writeFile('/from-sftp.txt', 'hi', (error) => (error ? reject(error) : resolve())));
  client.end();
  // A key of the account signs in too: the node hands it to the panel in authorized_keys form.
  const key = newKeyPair();
  await addSshKey(panel.db, node.owner.id, 'laptop', key.public, panel.clock.now());
  const withKey = await connect(node.remote.sftpPort, { username, privateKey: key.private });
  withKey.client.end();
  await expect(connect(node.remote.sftpPort, { username, privateKey: newKeyPair().private })).rejects.toThrow();
  // Sent in the node's next batch, or at its shutdown at the latest.
  await eventually(async () => {
    const events = await panel.db.selectFrom('activity_logs').select('event').where('event', 'like', 'server:sftp.%').execute();
    return events.length > 0;
  }, 20_000);
});
