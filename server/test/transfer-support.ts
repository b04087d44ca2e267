import path from 'node:path';
import Fastify from 'fastify';
import type { ServerConfiguration } from '../daemon/capabilities';
import { LocalDaemon } from '../daemon/local';
import { nodes as nodeRepo, servers, serverTransfers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import type { TransferDeps } from '../services/server-transfers';
import { test } from './fixtures';
import { insertRemoteNode } from './application-support';
import { eventually } from './game-support';

/*
 * A second node for transfers from the panel's own one: a LocalDaemon mounted on its own listener,
 * fetching the configuration from the panel's remote API with its own token and reporting its end
 * there, as the standalone node does; and a third node that nobody runs.
 */

export const PORTS = { start: 31300, end: 31399 };

export const it = test.extend('t', async ({ panel, tempDir }, { onCleanup }) => {
  const owner = await panel.user({ admin: true });
  const server = await panel.server(owner);
  const insertNode = (name: string, url: string, ports = { start: 31310, end: 31319 }): Promise<NodeRow> =>
    insertRemoteNode(panel, name, url, { port_start: ports.start, port_end: ports.end, allocation_ip: '127.0.0.1' });
  const bearer = (node: NodeRow) => ({ authorization: `Bearer ${node.daemon_token_id}.${panel.nodes.tokenOf(node)}` });
  // The target's address is known once it listens; its row is made first for its key.
  const app = Fastify();
  let target = await insertNode('target', 'http://127.0.0.1:1');
  const daemon = new LocalDaemon(path.join(tempDir, 'target'), {
    log: () => undefined,
    bwrap: null,
    serverUser: null,
    key: async () => panel.nodes.tokenOf(target),
    now: () => panel.clock.now(),
    configurationSource: async (uuid) => {
      const answer = await panel.app.inject({ url: `/api/remote/servers/${uuid}`, headers: bearer(target) });
      return answer.statusCode === 200 ? (answer.json() as ServerConfiguration) : undefined;
    },
  });
  // What the standalone node does with the end of a transfer: Wings' remote call.
  daemon.events.subscribe(async (event) => {
    if (event.type !== 'transfer.completed') return;
    const outcome = event.successful ? 'success' : 'failure';
    await panel.app.inject({ method: 'POST', url: `/api/remote/servers/${event.server}/transfer/${outcome}`, headers: bearer(target) });
  });
  await daemon.mount(app, { panelOrigin: () => 'http://panel.test' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  onCleanup(() => app.close());
  await panel.db.updateTable('nodes').set({ daemon_base_url: address }).where('id', '=', target.id).execute();
  target = (await nodeRepo.findById(panel.db, target.id)) ?? target;
  const other = await insertNode('other', 'http://127.0.0.1:2', { start: 31320, end: 31329 });
  const deps: TransferDeps = {
    db: panel.db,
    daemons: panel.nodes,
    clock: panel.clock,
    panelOrigin: 'http://panel.test',
    defaultPorts: PORTS,
    warn: () => undefined,
  };
  const fresh = async (): Promise<ServerRow> => (await servers.findById(panel.db, server.id)) ?? server;
  const ended = async () => {
    await eventually(async () => (await serverTransfers.running(panel.db, server.id)) === undefined);
    return panel.db.selectFrom('server_transfers').selectAll().where('server_id', '=', server.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  };
  return { owner, server, target, other, daemon, deps, bearer, fresh, ended, insertNode };
});
