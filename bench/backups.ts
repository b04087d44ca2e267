import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DaemonEvent } from '../server/daemon/capabilities';
import { TREE_MB, writeTree } from './files';
import { startBenchPanel } from './panel';

/*
 * Backup benchmarks for `npm run bench` (printed, never asserted), on the tree files/compress
 * uses (AERIE_BENCH_TREE_MB, 200 MB by default), through the node daemon (create → backup.completed,
 * restore → restore.completed), each run interleaved with its reference in the same run:
 * - a backup of the volume against `tar -czf` of the same tree (target: ratio at most 1.3);
 * - a restore (truncate false: every file replaced) against `tar -xzf` of the reference archive
 *   over an extracted copy of the tree (target: ratio at most 1.3).
 */

const run = promisify(execFile);
const RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ok = (pass: boolean) => (pass ? 'ok' : 'OVER TARGET');

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchBackups(): Promise<string[]> {
  const panel = await startBenchPanel();
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-tree-'));
  try {
    const { server, token } = await panel.owner('backups');
    const { backups, events } = panel.daemon;
    writeTree(path.join(source, 'tree'), TREE_MB);
    await panel.upload(
      token,
      server,
      source,
      fs.readdirSync(path.join(source, 'tree')).map((r) => `tree/${r}`),
    );
    /** Resolves with the daemon's report of `type` for `backup`; a failure throws. */
    const reported = (type: 'backup.completed' | 'restore.completed', backup: string) =>
      new Promise<DaemonEvent>((resolve, reject) => {
        const off = events.subscribe((event) => {
          if (event.type !== type || event.backup !== backup) return;
          off();
          if (event.successful) resolve(event);
          else reject(new Error(`${type} reported a failure for ${backup}`));
        });
      });

    const reference = path.join(panel.dataDir, 'reference.tar.gz');
    const extracted = path.join(panel.dataDir, 'reference-extract');
    fs.mkdirSync(extracted);
    const tarCreate = () => run('tar', ['-czf', reference, '-C', source, 'tree']);
    const tarExtract = () => run('tar', ['-xzf', reference, '-C', extracted]);
    await tarCreate(); // warms the page cache for the source; the volume's copy was just written
    await tarExtract(); // the copy each later extraction replaces, as a restore replaces the volume's

    const created: number[] = [];
    const tarCreated: number[] = [];
    const restored: number[] = [];
    const tarExtracted: number[] = [];
    let archiveBytes = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const backup = randomUUID();
      created.push(
        await time(async () => {
          const done = reported('backup.completed', backup);
          await backups.create(server.uuid, backup, []);
          const event = await done;
          if (event.type === 'backup.completed') archiveBytes = event.bytes;
        }),
      );
      tarCreated.push(await time(tarCreate));
      restored.push(
        await time(async () => {
          const done = reported('restore.completed', backup);
          await backups.restore(server.uuid, backup, { truncate: false });
          await done;
        }),
      );
      tarExtracted.push(await time(tarExtract));
      await backups.delete(server.uuid, backup);
    }
    const [c, tc, r, tx] = [median(created), median(tarCreated), median(restored), median(tarExtracted)];
    const tarBytes = fs.statSync(reference).size;
    const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
    return [
      `backups of a ${TREE_MB} MB tree, median of ${RUNS} (interleaved):`,
      `  backup  ${s(c)} vs tar -czf ${s(tc)}, ratio ${(c / tc).toFixed(2)} (${ok(c / tc <= 1.3)}, target ≤ 1.3); archive ${(archiveBytes / 1e6).toFixed(1)} MB vs ${(tarBytes / 1e6).toFixed(1)} MB`,
      `  restore ${s(r)} vs tar -xzf ${s(tx)}, ratio ${(r / tx).toFixed(2)} (${ok(r / tx <= 1.3)}, target ≤ 1.3)`,
    ];
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
    await panel.close();
  }
}
