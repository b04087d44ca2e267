import { describe, expect } from 'vitest';
import { allocations, nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { createNode, type NodeInput } from './nodes';
import { placeServer } from './placement';

/*
 * Where new servers go (issue 24 §2): the node named, else the one with the most free memory that
 * has a free port; each node's own port range and address for allocations. The remote nodes here
 * do not answer (nothing listens), which placement never asks.
 */

const PANEL_PORTS = { start: 31200, end: 31299 };

const it = test.extend(
  'node',
  async ({ panel }) =>
    (input: Partial<NodeInput> & { name: string }) =>
      remoteNode(panel, input),
);

function remoteNode(panel: TestPanel, input: Partial<NodeInput> & { name: string }): Promise<NodeRow> {
  const defaults = {
    fqdn: `${input.name}.example.com`,
    scheme: 'http' as const,
    daemonPort: 9,
    sftpPort: 2022,
    ports: null,
    ip: null,
    memory: 0,
    disk: 0,
  };
  return createNode(panel.db, panel.nodes, { ...defaults, ...input });
}

/** Puts a server of `memory` MiB on `node` (as if it had been created there). */
async function commit(panel: TestPanel, node: NodeRow, memory: number) {
  const server = await panel.server(await panel.user(), { node: 'local' });
  await panel.db.updateTable('servers').set({ node_id: node.id, memory }).where('id', '=', server.id).execute();
}

const place = (panel: TestPanel, request: { node?: string; memory?: number } = {}) =>
  placeServer(panel.db, { memory: 1024, panelPorts: PANEL_PORTS, ...request });

describe('placing a new server', () => {
  it('on the panel’s own node alone, as before: its address 127.0.0.1 and the panel’s ports', async ({ panel }) => {
    const server = await panel.server(await panel.user());
    const local = await nodes.local(panel.db);
    expect(server.node_id).toBe(local?.id);
    const placed = await place(panel);
    expect({ node: placed.node.name, ip: placed.ip, range: placed.range }).toEqual({ node: 'local', ip: '127.0.0.1', range: PANEL_PORTS });
  });

  it('chooses the node with the most free memory: its memory less its servers’ limits', async ({ panel, node }) => {
    await node({ name: 'small', memory: 4096 });
    const big = await node({ name: 'big', memory: 8192 });
    expect((await place(panel)).node.name).toBe('big');
    await commit(panel, big, 5000);
    expect((await place(panel)).node.name).toBe('small');
  });

  it('takes a node that says nothing of its memory (0) only when no node that does has room', async ({ panel, node }) => {
    await panel.server(await panel.user()); // makes the panel's own node, memory 0
    const stated = await node({ name: 'stated', memory: 2048 });
    expect((await place(panel, { memory: 2048 })).node.name).toBe('stated');
    expect((await place(panel, { memory: 2049 })).node.name).toBe('local');
    await commit(panel, stated, 2048);
    expect((await place(panel, { memory: 0 })).node.name).toBe('local');
  });

  it('skips a node with no free port, and refuses the node named when it has none', async ({ panel, node }) => {
    const full = await node({ name: 'full', memory: 8192, ports: { start: 30000, end: 30000 }, ip: '10.0.0.7' });
    const server = await panel.server(await panel.user(), { node: 'local' });
    await allocations.insert(panel.db, { node_id: full.id, ip: '10.0.0.7', ip_alias: null, port: 30000, server_id: server.id, notes: null });
    expect((await place(panel)).node.name).toBe('local');
    await expect(place(panel, { node: 'full' })).rejects.toThrow('Node full has no free port: 30000-30000 on 10.0.0.7 are all taken.');
  });

  it('among nodes that say nothing, prefers the panel’s own even when another was attached first', async ({ panel, node }) => {
    await node({ name: 'early' });
    const server = await panel.server(await panel.user());
    expect((await nodes.findById(panel.db, server.node_id))?.name).toBe('local');
  });

  it('refuses a node that does not exist, by name or id', async ({ panel }) => {
    await expect(place(panel, { node: 'nowhere' })).rejects.toThrow('No node named nowhere.');
    await expect(place(panel, { node: '999' })).rejects.toThrow('No node named 999.');
  });

  it('gives the server the lowest free port of its own node’s range on the node’s address', async ({ panel, node }) => {
    await panel.server(await panel.user());
    const eu = await node({ name: 'eu-1', memory: 8192, ports: { start: 30000, end: 30010 }, ip: '10.0.0.7' });
    // The node does not answer: the server was placed there, then rolled back (no server), and the
    // allocation placement made for it is left free on the node.
    await expect(panel.server(await panel.user(), { node: 'eu-1' })).rejects.toThrow(/eu-1/);
    expect(await panel.db.selectFrom('servers').selectAll().where('node_id', '=', eu.id).execute()).toEqual([]);
    const made = await panel.db.selectFrom('allocations').selectAll().where('node_id', '=', eu.id).execute();
    expect(made).toEqual([expect.objectContaining({ ip: '10.0.0.7', port: 30000, server_id: null })]);
  });

  it('“add allocation” takes the lowest free port of the server’s own node’s range, on the node’s address', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    await panel.db
      .updateTable('nodes')
      .set({ port_start: 31250, port_end: 31251, allocation_ip: '127.0.0.2' })
      .where('id', '=', server.node_id)
      .execute();
    await panel.db.updateTable('servers').set({ allocation_limit: 5 }).where('id', '=', server.id).execute();
    const add = async () =>
      panel.app.inject({ method: 'POST', url: `/api/client/servers/${server.uuid}/network/allocations`, headers: await panel.bearerHeaders(owner) });
    const first = await add();
    expect(first.statusCode).toBe(200);
    expect(first.json().attributes).toMatchObject({ ip: '127.0.0.2', port: 31250 });
    expect((await add()).json().attributes).toMatchObject({ ip: '127.0.0.2', port: 31251 });
    const none = await add();
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].detail).toMatch(/no free ports/);
  });
});
