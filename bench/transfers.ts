import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import type { DaemonEvent } from '../server/daemon/capabilities';
import { LocalDaemon } from '../server/daemon/local';
import { tokenKey } from '../server/daemon/tokens';
import { ConfigurationStore } from '../server/test/configuration-store';
import { testConfiguration } from '../server/test/daemon-contract';
import { TREE_MB, writeTree } from './files';

/*
 * A server transfer between two local nodes over loopback HTTP (`npm run bench`, printed, never
 * asserted): the source streams its volume (the files tree, AERIE_BENCH_TREE_MB, 200 MB by
 * default) to the target, which spools, checks and extracts it; against `tar -cz | tar -xz` of the
 * same tree, each run interleaved with its reference (target: ratio at most 1.5, issue 24).
 */

const run = promisify(execFile);
const RUNS = 3;
const KEY = 'bench-transfer-key-0123456789abcdef';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The reference a transfer is held to: `tar -cz | tar -xz` of `from` into `to` (emptied first), timed. */
export async function tarPipe(from: string, to: string): Promise<number> {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to);
  return time(() => run('sh', ['-c', 'tar -cz -C "$1" . | tar -xz -C "$2"', 'sh', from, to]));
}

export async function benchTransfers(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-transfer-'));
  const store = new ConfigurationStore();
  const options = { configurationSource: store.source, log: () => undefined, bwrap: null, serverUser: null } as const;
  const source = new LocalDaemon(path.join(dir, 'source'), options);
  const target = new LocalDaemon(path.join(dir, 'target'), { ...options, key: async () => KEY });
  const app = Fastify({ logger: false });
  try {
    const server = randomUUID();
    await store.apply(source, testConfiguration(server));
    await source.servers.create(server);
    writeTree(source.volumePath(server), TREE_MB);
    await target.mount(app, { panelOrigin: () => 'http://bench.test' });
    const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/transfers`;
    const sent = () =>
      new Promise<void>((resolve, reject) => {
        const off = source.events.subscribe((event: DaemonEvent) => {
          if (event.type !== 'transfer.sent' || event.server !== server) return;
          off();
          if (event.successful) resolve();
          else reject(new Error(`the transfer failed: ${event.reason}`));
        });
      });
    const reference = path.join(dir, 'reference');
    await tarPipe(source.volumePath(server), reference); // warms the page cache for the source tree
    const transferred: number[] = [];
    const piped: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const token = await new SignJWT({ scope: 'transfer' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(server)
        .setExpirationTime('15m')
        .sign(tokenKey(KEY));
      transferred.push(
        await time(async () => {
          const done = sent();
          await source.transfers.send(server, { url, token: `Bearer ${token}` });
          await done;
        }),
      );
      await target.servers.delete(server);
      piped.push(await tarPipe(source.volumePath(server), reference));
    }
    const [t, p] = [median(transferred), median(piped)];
    const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
    const ratio = t / p;
    return [
      `transfers of a ${TREE_MB} MB tree between two local nodes, median of ${RUNS} (interleaved):`,
      `  transfer ${s(t)} vs tar -cz | tar -xz ${s(p)}, ratio ${ratio.toFixed(2)} (${ratio <= 1.5 ? 'ok' : 'OVER TARGET'}, target ≤ 1.5)`,
    ];
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
