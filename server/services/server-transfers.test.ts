import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { allocations, nodes as nodeRepo, serverTransfers } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { loadSecretBox } from '../lib/secret-box';
import { runCli } from '../cli/commands';
import { eventually } from '../test/game-support';
import { it, PORTS } from '../test/transfer-support';
import { startTransfer } from './server-transfers';

/*
 * A transfer from the panel's own node to a second node over real HTTP (a LocalDaemon mounted on
 * its own listener, fetching the configuration from the panel's remote API with its own token and
 * reporting its end there, as the standalone node does): the server switches node and ports and
 * leaves the old node, or stays where it was with its reserved ports given back.
 */

it('moves the server to the target: its files, node and ports; the old node forgets it', async ({ panel, t }) => {
  fs.writeFileSync(path.join(panel.daemon.volumePath(t.server.uuid), 'world.dat'), 'saved game');
  const oldAllocation = t.server.allocation_id;
  await startTransfer(t.deps, t.server.id, 'target');
  expect((await t.fresh()).is_transferring).toBe(1);
  // The client API refuses it meanwhile, as the reference (409 ServerStateConflictException).
  const headers = await panel.sessionHeaders(t.owner);
  const refused = await panel.app.inject({ url: `/api/client/servers/${t.server.uuid}/files/list?directory=/`, headers });
  expect(refused.statusCode).toBe(409);
  expect(refused.json().errors[0]).toMatchObject({ code: 'ServerStateConflictException' });
  const row = await t.ended();
  expect(row).toMatchObject({ successful: 1, old_node: t.server.node_id, new_node: t.target.id, reason: null });
  const moved = await t.fresh();
  expect(moved).toMatchObject({ node_id: t.target.id, is_transferring: 0, allocation_id: row.new_allocation });
  expect(await allocations.findById(panel.db, row.new_allocation)).toMatchObject({ node_id: t.target.id, port: 31310, server_id: t.server.id });
  expect((await allocations.findById(panel.db, oldAllocation ?? 0))?.server_id).toBeNull();
  expect(fs.readFileSync(path.join(t.daemon.volumePath(t.server.uuid), 'world.dat'), 'utf8')).toBe('saved game');
  await eventually(() => !fs.existsSync(panel.daemon.volumePath(t.server.uuid)));
});

it('keeps the server where it was when the target refuses, its ports given back and the reason kept', async ({ panel, t }) => {
  fs.writeFileSync(path.join(panel.daemon.volumePath(t.server.uuid), 'world.dat'), 'saved game');
  // A node whose key is not the one the panel signs with: the target answers 401.
  await panel.db.updateTable('nodes').set(panel.nodes.newCredentials()).where('id', '=', t.target.id).execute();
  await startTransfer(t.deps, t.server.id, 'target');
  const row = await t.ended();
  expect(row.successful).toBe(0);
  expect(row.reason).toContain('401');
  expect(await t.fresh()).toMatchObject({ node_id: t.server.node_id, is_transferring: 0, allocation_id: t.server.allocation_id });
  expect((await allocations.findById(panel.db, row.new_allocation))?.server_id).toBeNull();
  expect(fs.readFileSync(path.join(panel.daemon.volumePath(t.server.uuid), 'world.dat'), 'utf8')).toBe('saved game');
  expect(fs.existsSync(t.daemon.volumePath(t.server.uuid))).toBe(false);
  // Usable again: its files can be written.
  await panel.daemon.files.write(t.server.uuid, 'after.txt', Buffer.from('x'), { maxBytes: 10 });
});

it('lets only the target report the end, and only of a running transfer', async ({ panel, t }) => {
  const local = await nodeRepo.findById(panel.db, t.server.node_id);
  if (!local) throw new Error('no local node');
  const report = (node: NodeRow, outcome: string, method: 'GET' | 'POST' = 'POST') =>
    panel.app.inject({ method, url: `/api/remote/servers/${t.server.uuid}/transfer/${outcome}`, headers: t.bearer(node) });
  const notMoving = await report(local, 'success');
  expect(notMoving.statusCode).toBe(409);
  expect(notMoving.json().errors[0].detail).toBe('Server is not being transferred.');
  expect((await report(t.target, 'success')).statusCode).toBe(404);
  expect((await panel.app.inject({ url: `/api/remote/servers/${t.server.uuid}`, headers: t.bearer(t.target) })).statusCode).toBe(404);

  // A transfer held open: the source never sends (as one stopped before the archive).
  const newAllocation = await allocations.insert(panel.db, {
    node_id: t.target.id,
    ip: '127.0.0.1',
    ip_alias: null,
    port: 31310,
    server_id: t.server.id,
    notes: null,
  });
  await serverTransfers.insert(panel.db, {
    serverId: t.server.id,
    oldNode: local.id,
    newNode: t.target.id,
    oldAllocation: t.server.allocation_id ?? 0,
    newAllocation: newAllocation.id,
    oldAdditional: [],
    newAdditional: [],
    now: panel.clock.now(),
  });
  await serverTransfers.setTransferring(panel.db, t.server.id, true, panel.clock.now());
  expect((await panel.app.inject({ url: `/api/remote/servers/${t.server.uuid}`, headers: t.bearer(t.target) })).statusCode).toBe(200);
  expect((await panel.app.inject({ url: `/api/remote/servers/${t.server.uuid}`, headers: t.bearer(t.other) })).statusCode).toBe(404);
  expect((await report(t.other, 'success')).statusCode).toBe(404);
  expect((await report(local, 'success')).statusCode).toBe(403);
  expect((await report(t.other, 'failure')).statusCode).toBe(404);
  // The source may say its stream was refused (Wings' source does): the server stays with it.
  expect((await report(local, 'failure', 'GET')).statusCode).toBe(204);
  const ended = await panel.db.selectFrom('server_transfers').selectAll().where('server_id', '=', t.server.id).executeTakeFirstOrThrow();
  expect(ended).toMatchObject({ successful: 0, reason: 'The source node reported that the transfer failed.' });
  expect(await t.fresh()).toMatchObject({ node_id: local.id, is_transferring: 0 });
  expect((await allocations.findById(panel.db, newAllocation.id))?.server_id).toBeNull();
  // Over: the target has nothing more to say about it (nor any other node but its own).
  expect((await report(t.target, 'failure')).statusCode).toBe(404);
  expect((await report(local, 'failure')).statusCode).toBe(409);
});

it('server:transfer refuses an unknown node, the same node, a target without free ports and a second transfer', async ({ panel, t }) => {
  const cli = (args: string[]) =>
    runCli(['server:transfer', '--server', t.server.uuid_short, ...args], {
      db: panel.db,
      nodes: panel.nodes,
      clock: panel.clock,
      box: loadSecretBox(panel.dataDir),
      ports: PORTS,
    });
  await expect(cli(['--node', 'nowhere'])).rejects.toThrow('There is no node named nowhere.');
  // No panel to hear the nodes' reports: refused before anything is reserved or sent.
  await expect(
    runCli(['server:transfer', '--server', t.server.uuid_short, '--node', 'target'], {
      db: panel.db,
      nodes: panel.nodes,
      clock: panel.clock,
      box: loadSecretBox(panel.dataDir),
      panelRunning: async () => false,
    }),
  ).rejects.toThrow('server:transfer needs the panel running');
  const local = await nodeRepo.findById(panel.db, t.server.node_id);
  await expect(cli(['--node', local?.name ?? ''])).rejects.toThrow('The server is already on this node.');
  const full = await t.insertNode('full', 'http://127.0.0.1:3', { start: 31330, end: 31330 });
  const other = await panel.server(t.owner);
  await allocations.insert(panel.db, { node_id: full.id, ip: '127.0.0.1', ip_alias: null, port: 31330, server_id: other.id, notes: null });
  await expect(cli(['--node', 'full'])).rejects.toThrow('There are no free ports');
  expect(await t.fresh()).toMatchObject({ is_transferring: 0, node_id: t.server.node_id });
  expect(await panel.db.selectFrom('server_transfers').selectAll().execute()).toEqual([]);
  await serverTransfers.setTransferring(panel.db, t.server.id, true, panel.clock.now());
  await expect(cli(['--node', 'target'])).rejects.toThrow('This server is already being transferred.');
  await serverTransfers.setTransferring(panel.db, t.server.id, false, panel.clock.now());
  await expect(cli(['--node', 'target'])).resolves.toEqual({ transferred: true, node: 'target' });
});
