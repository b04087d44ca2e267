import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { servers } from '../server/db/repos';
import { loadSecretBox } from '../server/lib/secret-box';
import { systemClock } from '../server/lib/time';
import { nodeDaemons } from '../server/services/node-daemons';
import { startTransfer } from '../server/services/server-transfers';
import { commandReplies, waitState } from './console';
import { TREE_MB, writeTree } from './files';
import { startBenchPanel, type BenchPanel, type BenchServer } from './panel';
import { startStandaloneNode, type StandaloneNode } from './standalone-node';
import { tarPipe } from './transfers';

/*
 * A server on Aerie's node run as its own process against the same server on the panel's own
 * node (issue 24 §6; printed, never asserted): files/list of 10,000 entries through the client
 * API and command → reply through the console socket (each target: within 1.5×), and transfers
 * there: the 10,000-entry server, and servers of a TREE_MB tree against `tar -cz | tar -xz` of
 * the same tree, interleaved (target ≤ 1.5×).
 */

const ENTRIES = 10_000;
const SAMPLES = 21;
const PINGS = 100;
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const verdict = (ratio: number) => `${ratio.toFixed(2).padStart(7)} ×    target ≤ 1.5×: ${ratio <= 1.5 ? 'ok' : 'OVER TARGET'}`;

type Move = (server: BenchServer, node: StandaloneNode) => Promise<number>;

/** The median of `pings` command → reply times on `server`, started and stopped around them. */
async function replies(panel: BenchPanel, base: string, token: string, server: BenchServer, toNode: boolean): Promise<number> {
  const power = (signal: string) => panel.api(token, 'POST', `/api/client/servers/${server.uuid}/power`, { signal });
  await power('start');
  await waitState(panel, token, server, 'running');
  try {
    const latencies = await commandReplies(panel, base, token, server, PINGS, toNode);
    return median(latencies.slice(10)); // the first few warm the path up
  } finally {
    await power('kill');
    await waitState(panel, token, server, 'offline');
  }
}

export async function benchNodes(): Promise<string[]> {
  const panel = await startBenchPanel();
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-nodes-'));
  const daemons = nodeDaemons(panel.daemon, loadSecretBox(panel.dataDir));
  let node: StandaloneNode | undefined;
  try {
    const base = await panel.listen();
    // Two servers of the same 10,000 entries: one stays, one moves; their listings are then timed in turn.
    const { server, token } = await panel.owner('nodes');
    const { server: stays, token: staysToken } = await panel.owner('stays');
    fs.mkdirSync(path.join(source, 'big'));
    for (let i = 0; i < ENTRIES; i += 1) fs.writeFileSync(path.join(source, 'big', `file-${i}.log`), 'x'.repeat(i % 200));
    await panel.upload(token, server, source, ['big']);
    await panel.upload(staysToken, stays, source, ['big']);
    const list = async (key: string, listed: BenchServer) => {
      const t0 = performance.now();
      await panel.api(key, 'GET', `/api/client/servers/${listed.uuid}/files/list?directory=%2Fbig`);
      return performance.now() - t0;
    };
    const localReply = await replies(panel, base, token, server, false);

    // The TREE_MB servers, each seeded on the panel's own node before the node starts.
    const trees: BenchServer[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const tree = (await panel.owner(`tree-${i}`)).server;
      writeTree(panel.daemon.volumePath(tree.uuid), TREE_MB);
      trees.push(tree);
    }

    node = await startStandaloneNode(panel, daemons, base);
    const deps = { db: panel.db, daemons, clock: systemClock, panelOrigin: base, defaultPorts: { start: 25565, end: 25665 }, warn: () => undefined };
    const move: Move = async (moved, to) => {
      const row = await servers.findByIdentifier(panel.db, moved.uuid);
      if (!row) throw new Error('no bench server');
      const t0 = performance.now();
      await startTransfer(deps, row.id, to.name);
      while ((await servers.findById(panel.db, row.id))?.node_id !== to.id) {
        if (performance.now() - t0 > 300_000) throw new Error('the transfer did not end in 5 minutes');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return performance.now() - t0;
    };
    const transfer = await move(server, node);

    const reference = path.join(source, 'reference');
    const [moved, piped]: [number[], number[]] = [[], []];
    for (const tree of trees) {
      piped.push(await tarPipe(panel.daemon.volumePath(tree.uuid), reference));
      moved.push(await move(tree, node));
    }
    fs.rmSync(reference, { recursive: true, force: true });

    const [local, remote]: [number[], number[]] = [[], []];
    for (let i = 0; i < SAMPLES + 3; i += 1) {
      const [l, r] = [await list(staysToken, stays), await list(token, server)];
      // The first three warm both paths up.
      if (i < 3) continue;
      local.push(l);
      remote.push(r);
    }
    const remoteReply = await replies(panel, base, token, server, true);
    const [t, p] = [median(moved), median(piped)];
    const [l, r] = [median(local), median(remote)];
    return [
      `files/list of a ${ENTRIES.toLocaleString('en')}-entry directory through the client API, median of ${SAMPLES} (interleaved):`,
      `  the panel's own node               ${l.toFixed(1).padStart(7)} ms`,
      `  Aerie's node, its own process      ${r.toFixed(1).padStart(7)} ms`,
      `  standalone / in-process            ${verdict(r / l)}`,
      `command → reply (say → its [Server] line) through the console socket, median of ${PINGS - 10}, one every 25 ms:`,
      `  the panel's own node               ${localReply.toFixed(1).padStart(7)} ms`,
      `  Aerie's node, its own process      ${remoteReply.toFixed(1).padStart(7)} ms   (socket straight to the node, as the SPA)`,
      `  standalone / in-process            ${verdict(remoteReply / localReply)}`,
      `the server (${ENTRIES.toLocaleString('en')} files) moved to that node: ${(transfer / 1000).toFixed(2)} s, start to switch`,
      `a ${TREE_MB} MB server moved there, start to switch, against tar -cz | tar -xz of its tree, median of ${RUNS} (interleaved):`,
      `  transfer ${(t / 1000).toFixed(2)} s (${moved.map((x) => (x / 1000).toFixed(2)).join(', ')}), tar ${(p / 1000).toFixed(2)} s (${piped.map((x) => (x / 1000).toFixed(2)).join(', ')})`,
      `  transfer / tar                     ${verdict(t / p)}`,
    ];
  } finally {
    await node?.stop();
    await panel.close();
    fs.rmSync(source, { recursive: true, force: true });
  }
}
