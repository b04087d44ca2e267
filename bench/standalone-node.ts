import fs from 'node:fs';
import path from 'node:path';
import type { NodeDaemons } from '../server/services/node-daemons';
import { createNode, nodeConfigYaml } from '../server/services/nodes';
import { nodeStarted, spawnNodeProcess } from '../server/test/node-namespace';
import { freePort } from '../server/test/node-support';
import type { BenchPanel } from './panel';

/* Aerie's node as its own process (`server/node-main.ts`), enrolled in the bench panel. */

const ROOT = path.resolve(import.meta.dirname, '..');

export interface StandaloneNode {
  id: number;
  name: string;
  stop: () => Promise<void>;
}

export async function startStandaloneNode(panel: BenchPanel, daemons: NodeDaemons, base: string): Promise<StandaloneNode> {
  const [port, sftpPort] = [await freePort(), await freePort()];
  const node = await createNode(panel.db, daemons, {
    name: 'bench-node',
    fqdn: '127.0.0.1',
    scheme: 'http',
    daemonPort: port,
    sftpPort,
    ports: { start: 41000, end: 41099 },
    ip: '127.0.0.1',
    memory: 0,
    disk: 0,
  });
  const file = path.join(panel.dataDir, 'bench-node.yml');
  fs.writeFileSync(file, nodeConfigYaml(node, daemons, base, path.join(panel.dataDir, 'node')).replace('host: 0.0.0.0', 'host: 127.0.0.1'));
  // As the node tests run it: in a network namespace of its own where the machine allows it.
  const child = await spawnNodeProcess({
    config: file,
    ports: [port, sftpPort],
    panelPort: Number(new URL(base).port),
    env: { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true' },
    cwd: ROOT,
  });
  try {
    await nodeStarted(child, 60_000);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { id: node.id, name: node.name, stop: async () => void (await child.stop()) };
}
