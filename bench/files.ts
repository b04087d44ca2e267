import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startBenchPanel } from './panel';

/*
 * File-manager benchmarks for `npm run bench` (printed, never asserted). Trees are built in a
 * temporary directory and put into the server's volume through the API (files/write of a tar,
 * then files/decompress), the way a remote node would get them.
 * - files/list of a 10,000-entry directory: median through the HTTP route (inject) and the
 *   daemon alone, side by side with the fastest bare listings of the same directory in the same
 *   run: a synchronous readdir + lstat loop in Node, and `find -maxdepth 1 -printf` as the C floor
 *   (targets: under 100 ms, within 2× of the fastest bare listing);
 * - files/compress of a 200 MB tree of semi-compressible data against `tar -czf` of the same
 *   tree (target: ratio at most 1.3).
 */

const run = promisify(execFile);
const LIST_ENTRIES = 10_000;
const LIST_SAMPLES = 21;
export const TREE_MB = Number(process.env.AERIE_BENCH_TREE_MB ?? 200);
const COMPRESS_RUNS = 3;
// What files/list reports of each entry: type, mode, size, modification time, name.
const FIND_FORMAT = '%y %m %s %T@ %f\\n';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const ok = (pass: boolean) => (pass ? 'ok' : 'OVER TARGET');
const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;

async function time(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The fastest listing Node has: no promises, one lstat per entry (as files/list needs sizes and times). */
function nodeSyncList(dir: string): number {
  let n = 0;
  for (const name of fs.readdirSync(dir)) if (fs.lstatSync(path.join(dir, name))) n += 1;
  return n;
}

const findList = (dir: string) => run('find', [dir, '-mindepth', '1', '-maxdepth', '1', '-printf', FIND_FORMAT], { maxBuffer: 64 * 1024 * 1024 });
// The same process with nothing to list: what starting `find` costs by itself.
const findStart = (dir: string) => run('find', [dir, '-maxdepth', '0', '-printf', '']);

/** 1 MB files: a quarter random bytes, the rest log lines with random numbers (gzip to roughly half). */
export function writeTree(root: string, megabytes: number): void {
  for (let i = 0; i < megabytes; i += 1) {
    const dir = path.join(root, `region-${i % 10}`);
    fs.mkdirSync(dir, { recursive: true });
    const binary = randomBytes(256 * 1024);
    const lines: string[] = [];
    let size = 0;
    while (size < 768 * 1024) {
      const line = `[12:${String(i % 60).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}] [Server thread/INFO]: chunk ${randomBytes(6).toString('hex')} saved in ${size % 977} ms\n`;
      lines.push(line);
      size += line.length;
    }
    fs.writeFileSync(path.join(dir, `r.${i}.mca`), Buffer.concat([binary, Buffer.from(lines.join('')).subarray(0, 768 * 1024)]));
  }
}

export async function benchFiles(): Promise<string[]> {
  const lines: string[] = [];
  const panel = await startBenchPanel();
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-tree-'));
  try {
    const { server, token } = await panel.owner('files');

    // files/list of 10,000 entries
    fs.mkdirSync(path.join(source, 'big'));
    for (let i = 0; i < LIST_ENTRIES; i += 1) fs.writeFileSync(path.join(source, 'big', `file-${i}.log`), 'x'.repeat(i % 200));
    await panel.upload(token, server, source, ['big']);
    // The bare listings read the volume itself: the one place the bench looks inside it.
    const big = path.join(panel.daemon.volumePath(server.uuid), 'big');
    if (nodeSyncList(big) !== LIST_ENTRIES) throw new Error(`the volume's big/ does not hold ${LIST_ENTRIES} entries`);
    const url = `/api/client/servers/${server.uuid}/files/list?directory=%2Fbig`;
    const contenders: [string, () => unknown][] = [
      ['route', () => panel.api(token, 'GET', url)],
      ['daemon', () => panel.daemon.files.list(server.uuid, '/big')],
      ['node', () => nodeSyncList(big)],
      ['find', () => findList(big)],
      ['findStart', () => findStart(big)],
    ];
    for (let i = 0; i < 3; i += 1) for (const [, fn] of contenders) await fn();
    const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
    // Interleaved, so background load hits all alike; but the in-process listings and the `find`
    // processes each in their own loop: right after spawning a process, the panel's first writes to
    // its own heap pay copy-on-write faults, which would be charged to whichever listing came next.
    const inProcess = contenders.filter(([name]) => !name.startsWith('find'));
    const spawned = contenders.filter(([name]) => name.startsWith('find'));
    for (const group of [inProcess, spawned])
      for (let i = 0; i < LIST_SAMPLES; i += 1) for (const [name, fn] of group) samples.get(name)?.push(await time(fn));
    const m = (name: string) => median(samples.get(name) ?? []);
    const [route, daemon, node, find] = [m('route'), m('daemon'), m('node'), m('find')];
    const fastest = Math.min(node, find);
    lines.push(
      `files/list of a ${LIST_ENTRIES.toLocaleString('en')}-entry directory, median of ${LIST_SAMPLES} (interleaved):`,
      `  route (HTTP through inject)       ${ms(route)}   target < 100 ms: ${ok(route < 100)}`,
      `  daemon alone                      ${ms(daemon)}`,
      `  Node readdirSync + lstatSync      ${ms(node)}   bare`,
      `  find -maxdepth 1 -printf          ${ms(find)}   bare, C (starting find alone: ${m('findStart').toFixed(1)} ms)`,
      `  route / fastest bare listing      ${(route / fastest).toFixed(2).padStart(7)} ×    target ≤ 2×: ${ok(route / fastest <= 2)}`,
      `  daemon / fastest bare listing     ${(daemon / fastest).toFixed(2).padStart(7)} ×`,
    );
    await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/delete`, { root: '/', files: ['big'] });

    // files/compress of a 200 MB tree
    writeTree(path.join(source, 'tree'), TREE_MB);
    // One archive per region keeps each upload well under the panel's upload limit.
    const regions = fs.readdirSync(path.join(source, 'tree')).map((r) => `tree/${r}`);
    await panel.upload(token, server, source, regions);
    const out = path.join(panel.dataDir, 'reference.tar.gz');
    // tar reads the same tree from where it was built: same files, same file system.
    const tarRun = () => run('tar', ['-czf', out, '-C', source, 'tree']);
    await tarRun(); // warms the page cache for the source; the volume's copy was just written
    const ours: number[] = [];
    const theirs: number[] = [];
    let archiveBytes = 0;
    for (let i = 0; i < COMPRESS_RUNS; i += 1) {
      ours.push(
        await time(async () => {
          const res = await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/compress`, { root: '/', files: ['tree'] });
          const archive = (JSON.parse(res.body) as { attributes: { name: string; size: number } }).attributes;
          archiveBytes = archive.size;
          await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/delete`, { root: '/', files: [archive.name] });
        }),
      );
      theirs.push(await time(tarRun));
    }
    const [o, t] = [median(ours), median(theirs)];
    const tarBytes = fs.statSync(out).size;
    lines.push(
      `files/compress ${TREE_MB} MB tree: median ${(o / 1000).toFixed(2)} s vs tar -czf ${(t / 1000).toFixed(2)} s, ratio ${(o / t).toFixed(2)} (${ok(o / t <= 1.3)}, target ≤ 1.3); archive ${(archiveBytes / 1e6).toFixed(1)} MB vs ${(tarBytes / 1e6).toFixed(1)} MB`,
    );
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
    await panel.close();
  }
  return lines;
}
