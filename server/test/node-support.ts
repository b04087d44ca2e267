import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { NodeRow, ServerRow, UserRow } from '../db/schema';
import { createNode, nodeConfigYaml } from '../services/nodes';
import { findEgg } from '../services/servers';
import type { TestPanel } from './harness';
import { listen } from './raw-http';
import { nodeStarted, spawnNodeProcess, type NodeProcess } from './node-namespace';

/*
 * Aerie's node as a real child process (`tsx server/node-main.ts`) answering to a test panel that
 * listens on loopback: a node made through the nodes service and the config.yml `node:config`
 * prints, as an operator would set one up; in a network namespace of its own where the machine
 * allows it (node-namespace.ts).
 */

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface RunningNode {
  node: NodeRow;
  url: string;
  panelUrl: string;
  sftpPort: number;
  dataDir: string;
  output: () => string;
  /** The node's process: in a network namespace of its own where the machine allows it. */
  process: NodeProcess;
  /** Wings' API with the node's token (or `token` instead). */
  call: (method: string, url: string, body?: unknown, token?: string | null) => Promise<Response>;
  /** A server of `owner` on the demo egg, moved onto this node in the panel's database (the node has not heard of it). */
  server: (owner: UserRow) => Promise<ServerRow>;
  stop: () => Promise<number | null>;
  /** SIGKILL, as a crash or a power cut: nothing of the node's shutdown runs. */
  kill: () => Promise<void>;
  /** The node started again on the same config and data dir. */
  restart: () => Promise<void>;
}

/** How the node is made: the nodes service by default; a test may make it another way (the application API). */
export type MakeNode = (ports: { port: number; sftpPort: number; panelUrl: string }) => Promise<NodeRow>;

export async function startNode(panel: TestPanel, onCleanup: (fn: () => Promise<void>) => void, make?: MakeNode): Promise<RunningNode> {
  const panelPort = await listen(panel.app);
  const panelUrl = `http://127.0.0.1:${panelPort}`;
  const [port, sftpPort] = [await freePort(), await freePort()];
  const node = make
    ? await make({ port, sftpPort, panelUrl })
    : await createNode(panel.db, panel.nodes, {
        name: 'remote-1',
        fqdn: '127.0.0.1',
        scheme: 'http',
        daemonPort: port,
        sftpPort,
        ports: { start: 31000, end: 31099 },
        ip: '127.0.0.1',
        memory: 0,
        disk: 0,
      });
  const dataDir = path.join(panel.dataDir, 'node');
  const file = path.join(panel.dataDir, 'node-config.yml');
  fs.writeFileSync(file, nodeConfigYaml(node, panel.nodes, panelUrl, dataDir).replace('host: 0.0.0.0', 'host: 127.0.0.1'));
  const env = { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true', PANEL_SERVER_STOP_TIMEOUT: '5' };
  let child: NodeProcess;
  // One process at a time, on the same config and data dir: `restart` launches it again as an operator would.
  const launch = async () => {
    child = await spawnNodeProcess({ config: file, ports: [port, sftpPort], panelPort, env, cwd: process.cwd() });
    await nodeStarted(child, 30_000);
  };
  onCleanup(async () => void (await child.stop()));
  await launch();
  const url = `http://127.0.0.1:${port}`;
  const token = panel.nodes.tokenOf(node);
  return {
    node,
    url,
    panelUrl,
    sftpPort,
    dataDir,
    get process() {
      return child;
    },
    output: () => child.output(),
    stop: () => child.stop(),
    kill: async () => {
      child.kill('SIGKILL');
      await child.exited;
    },
    restart: launch,
    call: (method, route, body, as = token) =>
      fetch(`${url}${route}`, {
        method,
        headers: {
          ...(as === null ? {} : { authorization: `Bearer ${as}` }),
          ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'application/octet-stream' : 'application/json' }),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async server(owner) {
      const eggId = (await findEgg(panel.db, 'Demo game'))?.id;
      const server = await panel.server(owner, { eggId });
      // Made on the panel's own node (which installed it there): now the remote node's, not yet installed.
      await panel.db.updateTable('servers').set({ node_id: node.id, status: 'installing' }).where('id', '=', server.id).execute();
      return server;
    },
  };
}
