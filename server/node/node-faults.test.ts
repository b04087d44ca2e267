import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { allocations, backups, nodes, serverTransfers, servers } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import { systemClock } from '../lib/time';
import { TARGET_RESTARTED } from '../services/node-reset';
import { startTransfer } from '../services/server-transfers';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { startNode, type RunningNode } from '../test/node-support';

/*
 * Faults between the panel and Aerie's node (issue 24 §5): the node's process killed (SIGKILL, as a
 * crash) in the middle of work the panel shows as running, then started again on the same data
 * dir. Its `servers/reset` at boot must end that work on the panel, and its sweep must leave no
 * part of it on disk.
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

const RECEIVE_AREA = '.aerie-tmp';

/** A server of `owner` installed on the remote node, with `megabytes` of incompressible data beside a small file. */
async function installedOnNode(panel: TestPanel, remote: RunningNode, owner: UserRow, megabytes: number): Promise<ServerRow> {
  const server = await remote.server(owner);
  await panel.db.updateTable('servers').set({ disk: 0 }).where('id', '=', server.id).execute();
  // Its port too: a transfer moves only the ports the server holds on the node it is on.
  await panel.db.updateTable('allocations').set({ node_id: remote.node.id }).where('server_id', '=', server.id).execute();
  // remote.server made it on the panel's own node first: that copy goes, as a transfer would leave it.
  await panel.daemon.servers.delete(server.uuid);
  expect((await remote.call('POST', '/api/servers', { uuid: server.uuid, start_on_completion: false })).status).toBe(202);
  await eventually(async () => (await servers.findById(panel.db, server.id))?.status === null, 60_000);
  const volume = path.join(remote.dataDir, 'volumes', server.uuid);
  fs.writeFileSync(path.join(volume, 'level.dat'), 'spawn at 0,64,0');
  // Incompressible, so gzip and the stream take long enough to be caught mid-way.
  for (let i = 0; i < megabytes / 8; i += 1) fs.writeFileSync(path.join(volume, `chunk-${i}.bin`), randomBytes(8 * 1024 * 1024));
  return server;
}

/** Waits until a non-empty part file sits in `dir` (optionally only those `name` accepts). */
async function partWritten(dir: string, name: (n: string) => boolean = () => true): Promise<void> {
  await eventually(() => {
    const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    return names.some((n) => name(n) && fs.statSync(path.join(dir, n)).size > 0);
  }, 30_000);
}

it(
  'fails a backup cut off by the node being killed, removes its part, and a new backup can be made',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await installedOnNode(panel, remote, owner, 64);
    await panel.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', server.id).execute();
    const headers = await panel.bearerHeaders(owner);
    const url = `/api/client/servers/${server.uuid}/backups`;
    const created = await panel.app.inject({ method: 'POST', url, headers, payload: { name: 'cut off' } });
    expect(created.statusCode, created.body).toBe(200);
    const uuid = (JSON.parse(created.body) as { attributes: { uuid: string } }).attributes.uuid;
    const dir = path.join(remote.dataDir, 'backups', server.uuid);
    await partWritten(dir, (n) => n.startsWith('.aerie-'));
    await remote.kill();
    expect((await backups.findByUuid(panel.db, uuid))?.completed_at ?? null).toBeNull();

    await remote.restart();
    // Its reset at boot: the backup failed (the list shows it so), the part is swept.
    const failed = await backups.findByUuid(panel.db, uuid);
    expect(failed?.completed_at).not.toBeNull();
    expect(failed?.is_successful).toBe(0);
    await eventually(() => fs.readdirSync(dir).length === 0);
    const fail = await panel.db.selectFrom('activity_logs').select('event').where('event', '=', 'server:backup.fail').execute();
    expect(fail).toHaveLength(1);
    // A failed backup holds no place under the limit of 1.
    const again = await panel.app.inject({ method: 'POST', url, headers, payload: { name: 'again' } });
    expect(again.statusCode, again.body).toBe(200);
    const next = (JSON.parse(again.body) as { attributes: { uuid: string } }).attributes.uuid;
    await eventually(async () => (await backups.findByUuid(panel.db, next))?.is_successful === 1, 60_000);
    expect(fs.existsSync(path.join(dir, `${next}.tar.gz`))).toBe(true);
  },
);

it(
  'fails a transfer whose source was killed mid-stream: the server stays on its node, whole, and usable',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await installedOnNode(panel, remote, owner, 96);
    // remote.server made it on the panel's own node before moving it: that row names the panel's node.
    const local = await nodes.findById(panel.db, server.node_id);
    if (!local) throw new Error('no local node');
    const deps = {
      db: panel.db,
      daemons: panel.nodes,
      // The panel's own node checks the token against the test panel's clock, which stands still in March.
      clock: panel.clock,
      panelOrigin: remote.panelUrl,
      defaultPorts: panel.config.allocationPorts,
      warn: () => undefined,
    };
    const transfer = await startTransfer(deps, server.id, local.name);
    const receiveArea = path.join(path.dirname(panel.daemon.volumePath(server.uuid)), RECEIVE_AREA);
    await partWritten(receiveArea);
    await remote.kill();
    await remote.restart();

    // The target reports the failure when the stream breaks; a target that never heard it end (a
    // cut cable sends no reset) leaves it to the source's reset at boot (remote.test.ts).
    const ended = await serverTransfers.findById(panel.db, transfer.id);
    expect(ended?.successful).toBe(0);
    expect(ended?.reason).toMatch(/\S/);
    const after = await servers.findById(panel.db, server.id);
    expect(after).toMatchObject({ node_id: remote.node.id, is_transferring: 0 });
    // The ports reserved on the target are free again.
    expect((await allocations.findById(panel.db, transfer.new_allocation))?.server_id ?? null).toBeNull();
    // The target dropped what it had spooled when the stream broke, and made no volume.
    await eventually(() => !fs.existsSync(receiveArea) || fs.readdirSync(receiveArea).length === 0);
    expect(fs.existsSync(panel.daemon.volumePath(server.uuid))).toBe(false);
    const headers = await panel.bearerHeaders(owner);
    const read = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/contents?file=%2Flevel.dat`, headers });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.body).toBe('spawn at 0,64,0');
  },
);

it('fails a transfer whose target was killed mid-stream, and frees the ports reserved there', { timeout: 120_000 }, async ({ panel, remote }) => {
  const owner = await panel.user();
  const server = await panel.server(owner, { disk: 0 });
  const volume = panel.daemon.volumePath(server.uuid);
  fs.writeFileSync(path.join(volume, 'level.dat'), 'spawn at 0,64,0');
  for (let i = 0; i < 12; i += 1) fs.writeFileSync(path.join(volume, `chunk-${i}.bin`), randomBytes(8 * 1024 * 1024));
  const deps = {
    db: panel.db,
    daemons: panel.nodes,
    clock: systemClock,
    panelOrigin: remote.panelUrl,
    defaultPorts: panel.config.allocationPorts,
    warn: () => undefined,
  };
  const transfer = await startTransfer(deps, server.id, remote.node.name);
  const receiveArea = path.join(remote.dataDir, 'volumes', RECEIVE_AREA);
  await partWritten(receiveArea);
  await remote.kill();

  // The source's stream broke: it reports the failure (or the target's reset does, once it is back).
  await eventually(async () => (await serverTransfers.findById(panel.db, transfer.id))?.successful === 0, 30_000);
  await remote.restart();
  const ended = await serverTransfers.findById(panel.db, transfer.id);
  expect(ended?.reason).toMatch(/\S/);
  expect(ended?.reason).not.toBe(TARGET_RESTARTED);
  expect(await servers.findById(panel.db, server.id)).toMatchObject({ node_id: server.node_id, is_transferring: 0 });
  expect((await allocations.findById(panel.db, transfer.new_allocation))?.server_id ?? null).toBeNull();
  // The target swept its spool at boot and holds no volume of the server.
  await eventually(() => fs.readdirSync(receiveArea).length === 0);
  expect(fs.existsSync(path.join(remote.dataDir, 'volumes', server.uuid))).toBe(false);
  expect(fs.readFileSync(path.join(volume, 'level.dat'), 'utf8')).toBe('spawn at 0,64,0');
});
