import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { nodes, servers } from '../db/repos';
import { systemClock } from '../lib/time';
import { signNodeToken } from '../services/node-tokens';
import { startTransfer, type TransferDeps } from '../services/server-transfers';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { startNode } from '../test/node-support';

/*
 * A transfer between the panel's own node and Aerie's node run as its own process (issue 24 §4),
 * through Wings' routes both ways: the panel asks the source (`POST /api/servers/:uuid/transfer`
 * on the node, in-process on its own), the source streams to the target's `/api/transfers`, and
 * the target reports to the panel (the remote API, or its own events for the panel's node).
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

it("moves a server to Aerie's node and back, its files intact, and the client API follows it", { timeout: 240_000 }, async ({ panel, remote }) => {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const local = await nodes.findById(panel.db, server.node_id);
  if (!local) throw new Error('no local node');
  fs.mkdirSync(path.join(panel.daemon.volumePath(server.uuid), 'world'), { recursive: true });
  fs.writeFileSync(path.join(panel.daemon.volumePath(server.uuid), 'world', 'level.dat'), 'spawn at 0,64,0');
  const deps: TransferDeps = {
    db: panel.db,
    daemons: panel.nodes,
    clock: panel.clock,
    panelOrigin: remote.panelUrl,
    defaultPorts: panel.config.allocationPorts,
    warn: () => undefined,
  };
  const headers = await panel.bearerHeaders(owner);
  const contents = () => panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/contents?file=%2Fworld%2Flevel.dat`, headers });

  // The test panel's clock stands still in March; the node's process lives in the real time its tokens are checked against.
  await startTransfer({ ...deps, clock: systemClock }, server.id, remote.node.name);
  await eventually(async () => (await servers.findById(panel.db, server.id))?.node_id === remote.node.id, 60_000);
  const there = await contents();
  expect(there.statusCode, there.body).toBe(200);
  expect(there.body).toBe('spawn at 0,64,0');
  expect(fs.existsSync(path.join(remote.dataDir, 'volumes', server.uuid, 'world', 'level.dat'))).toBe(true);
  // The panel's node lets go of its copy once the target has it.
  await eventually(() => !fs.existsSync(panel.daemon.volumePath(server.uuid)), 60_000);
  expect((await servers.findById(panel.db, server.id))?.is_transferring).toBe(0);

  // Aerie's node as the source: an admin's console there hears the transfer as from Wings' source.
  const ws = new WebSocket(`${remote.url.replace('http', 'ws')}/api/servers/${server.uuid}/ws`, { origin: remote.panelUrl });
  const frames: { event: string; args?: string[] }[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as { event: string; args?: string[] }));
  ws.on('close', (code, reason) => frames.push({ event: 'closed', args: [String(code), String(reason)] }));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const permissions = ['*', 'admin.websocket.transfer'];
  const socketToken = await signNodeToken({
    node: remote.node,
    key: panel.nodes.tokenOf(remote.node),
    user: owner,
    serverUuid: server.uuid,
    scope: 'websocket',
    claims: { permissions },
    ttlSeconds: 600,
    panelOrigin: remote.panelUrl,
    now: new Date(),
  });
  ws.send(JSON.stringify({ event: 'auth', args: [socketToken] }));
  await eventually(() => frames.some((f) => f.event === 'auth success'), 30_000).catch((error: unknown) => {
    throw new Error(`${String(error)}; frames: ${JSON.stringify(frames.slice(-20))}; node: ${remote.output().slice(-3000)}`);
  });

  await startTransfer(deps, server.id, local.name);
  // Should it not end, what the panel recorded and what the node printed say why.
  await eventually(async () => (await servers.findById(panel.db, server.id))?.node_id === local.id, 90_000).catch(async (error: unknown) => {
    const rows = await panel.db.selectFrom('server_transfers').selectAll().execute();
    throw new Error(`${String(error)}; transfers: ${JSON.stringify(rows)}; node: ${remote.output().slice(-3000)}`);
  });
  await eventually(() => frames.some((f) => f.event === 'transfer status' && f.args?.[0] === 'completed'), 60_000);
  expect(frames.filter((f) => f.event === 'transfer status').map((f) => f.args?.[0])).toEqual(['processing', 'completed']);
  expect(frames.filter((f) => f.event === 'transfer logs').length).toBeGreaterThan(2);
  ws.close();
  const back = await contents();
  expect(back.statusCode, back.body).toBe(200);
  expect(back.body).toBe('spawn at 0,64,0');
  await eventually(() => !fs.existsSync(path.join(remote.dataDir, 'volumes', server.uuid)), 60_000);
});
