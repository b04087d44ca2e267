import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { DaemonEvent } from '../daemon/capabilities';
import { WingsNode } from '../daemon/wings';
import { test } from '../test/fixtures';
import { startWingsDouble } from '../test/wings-double';
import { createNode } from './nodes';

/* The panel drives every node with a daemon address over Wings' API (issue 24 §2). */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => {
  const wings = await startWingsDouble();
  onCleanup(() => wings.close());
  const owner = await panel.user();
  const [onWings, onDown, local] = [await panel.server(owner), await panel.server(owner), await panel.server(owner)];
  const nodeAt = async (name: string, url: string) => {
    const port = Number(new URL(url).port);
    const node = await createNode(panel.db, panel.nodes, {
      name,
      fqdn: '127.0.0.1',
      scheme: 'http',
      daemonPort: port,
      sftpPort: 2022,
      ports: null,
      ip: null,
      memory: 1024,
      disk: 1024,
    });
    return node;
  };
  const wingsNode = await nodeAt('node-2', wings.url);
  // The double takes this node's token, as the node's config.yml would hold it.
  wings.token = panel.nodes.tokenOf(wingsNode);
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const downNode = await nodeAt('node-down', `http://127.0.0.1:${closedPort}`);
  await panel.db.updateTable('servers').set({ node_id: wingsNode.id }).where('id', '=', onWings.id).execute();
  await panel.db.updateTable('servers').set({ node_id: downNode.id }).where('id', '=', onDown.id).execute();
  const headers = await panel.sessionHeaders(owner);
  const get = (url: string) => panel.app.inject({ method: 'GET', url, headers });
  const node = async (id: number) => panel.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { wings, onWings, onDown, local, get, node, wingsNode, downNode };
});

it("lists a Wings node's files through the client API, asking the node with its token", async ({ remote: r }) => {
  const res = await r.get(`/api/client/servers/${r.onWings.uuid_short}/files/list?directory=%2Fplugins`);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.map((f: { attributes: { name: string } }) => f.attributes.name)).toEqual(['plugins', 'server.properties']);
  const request = r.wings.last('GET /api/servers/:server/files/list-directory');
  expect(request.path).toBe(`/api/servers/${r.onWings.uuid}/files/list-directory`);
  expect(request.query.get('directory')).toBe('/plugins');
  expect(request.headers.authorization).toBe(`Bearer ${r.wings.token}`);
});

it('answers 504 with the error document at once for a node that is down; everything else keeps working', async ({ remote: r }) => {
  const started = Date.now();
  const down = await r.get(`/api/client/servers/${r.onDown.uuid_short}/files/list?directory=%2F`);
  expect(Date.now() - started).toBeLessThan(3000);
  expect(down.statusCode).toBe(504);
  expect(down.json()).toEqual({
    errors: [
      { code: 'DaemonConnectionException', status: '504', detail: expect.stringMatching(/^The node node-down did not answer: .*ECONNREFUSED/) },
    ],
  });
  const list = await r.get('/api/client');
  expect(list.statusCode).toBe(200);
  expect(
    list
      .json()
      .data.map((s: { attributes: { uuid: string } }) => s.attributes.uuid)
      .sort(),
  ).toEqual([r.onWings.uuid, r.onDown.uuid, r.local.uuid].sort());
  expect((await r.get(`/api/client/servers/${r.onDown.uuid_short}`)).statusCode).toBe(200);
  expect((await r.get(`/api/client/servers/${r.local.uuid_short}/files/list?directory=%2F`)).statusCode).toBe(200);
});

it("keeps one client per node, and a node's reports through the remote API reach those listening to it", async ({ panel, remote: r }) => {
  const row = await r.node(r.wingsNode.id);
  const daemon = panel.nodes.forNode(row);
  expect(daemon).toBeInstanceOf(WingsNode);
  expect(panel.nodes.forNode(row)).toBe(daemon);
  const heard: DaemonEvent[] = [];
  const unsubscribe = daemon.events.subscribe((event) => void heard.push(event));
  const res = await panel.app.inject({
    method: 'POST',
    url: `/api/remote/servers/${r.onWings.uuid}/install`,
    headers: { authorization: `Bearer ${row.daemon_token_id}.${panel.nodes.tokenOf(row)}` },
    payload: { successful: true, reinstall: false },
  });
  unsubscribe();
  expect(res.statusCode).toBe(204);
  expect(heard).toEqual([{ type: 'install.completed', server: r.onWings.uuid, successful: true, reinstall: false }]);
});
