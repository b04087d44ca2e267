import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { servers } from '../server/db/repos';
import { loadSecretBox } from '../server/lib/secret-box';
import { systemClock } from '../server/lib/time';
import { nodeDaemons } from '../server/services/node-daemons';
import { createNode, nodeConfigYaml } from '../server/services/nodes';
import { startTransfer } from '../server/services/server-transfers';
import { startBenchPanel } from './panel';
import { freePort } from '../server/test/node-support';

/*
 * A server on Aerie's node run as its own process against the same server on the panel's own
 * node (issue 24 §6; printed, never asserted): files/list of 10,000 entries through the client
 * API (target: within 1.5×), and the transfer that moves the server there (its files: the 10,000
 * entries). Command → reply through a standalone node is not measured yet.
 */

const ENTRIES = 10_000;
const SAMPLES = 21;
const ROOT = path.resolve(import.meta.dirname, '..');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function benchNodes(): Promise<string[]> {
  const panel = await startBenchPanel();
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-nodes-'));
  const daemons = nodeDaemons(panel.daemon, loadSecretBox(panel.dataDir));
  let stopNode = async () => undefined as void;
  try {
    const base = await panel.listen();
    const { server, token } = await panel.owner('nodes');
    fs.mkdirSync(path.join(source, 'big'));
    for (let i = 0; i < ENTRIES; i += 1) fs.writeFileSync(path.join(source, 'big', `file-${i}.log`), 'x'.repeat(i % 200));
    await panel.upload(token, server, source, ['big']);
    const list = () => panel.api(token, 'GET', `/api/client/servers/${server.uuid}/files/list?directory=%2Fbig`);
    const sample = async () => {
      for (let i = 0; i < 3; i += 1) await list();
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        const t0 = performance.now();
        await list();
        times.push(performance.now() - t0);
      }
      return median(times);
    };
    const local = await sample();

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
    stopNode = async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    };
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('SFTP listening')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the node did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const row = await servers.findByIdentifier(panel.db, server.uuid);
    if (!row) throw new Error('no bench server');
    const deps = { db: panel.db, daemons, clock: systemClock, panelOrigin: base, defaultPorts: { start: 25565, end: 25665 }, warn: () => undefined };
    const t0 = performance.now();
    await startTransfer(deps, row.id, node.name);
    while ((await servers.findById(panel.db, row.id))?.node_id !== node.id) {
      if (performance.now() - t0 > 300_000) throw new Error('the transfer did not end in 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const transfer = performance.now() - t0;
    const remote = await sample();
    const ratio = remote / local;
    return [
      `files/list of a ${ENTRIES.toLocaleString('en')}-entry directory through the client API, median of ${SAMPLES}:`,
      `  the panel's own node               ${local.toFixed(1).padStart(7)} ms`,
      `  Aerie's node, its own process      ${remote.toFixed(1).padStart(7)} ms`,
      `  standalone / in-process            ${ratio.toFixed(2).padStart(7)} ×    target ≤ 1.5×: ${ratio <= 1.5 ? 'ok' : 'OVER TARGET'}`,
      `the server (${ENTRIES.toLocaleString('en')} files) moved to that node: ${(transfer / 1000).toFixed(2)} s, start to switch`,
      'command → reply through a standalone node: not measured yet',
    ];
  } finally {
    await stopNode();
    await panel.close();
    fs.rmSync(source, { recursive: true, force: true });
  }
}
