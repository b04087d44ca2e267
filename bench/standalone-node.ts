import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { NodeDaemons } from '../server/services/node-daemons';
import { createNode, nodeConfigYaml } from '../server/services/nodes';
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
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['server/node-main.ts', '--config', file], {
    cwd: ROOT,
    env: { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('SFTP listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the node did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { id: node.id, name: node.name, stop };
}
