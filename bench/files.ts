import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTestPanel } from '../server/test/harness';

/*
 * File-manager benchmarks for `npm run bench` (printed, never asserted):
 * - files/list of a 10,000-entry directory: median through the HTTP route (inject) and the
 *   daemon alone, against a bare readdir + stat of the same directory in the same run
 *   (targets: under 100 ms, within 2× of the bare walk);
 * - files/compress of a 200 MB tree of semi-compressible data against `tar -czf` of the same tree
 *   (target: ratio at most 1.3).
 */

const run = promisify(execFile);
const LIST_ENTRIES = 10_000;
const LIST_SAMPLES = 21;
const TREE_MB = Number(process.env.AERIE_BENCH_TREE_MB ?? 200);
const COMPRESS_RUNS = 3;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const ok = (pass: boolean) => (pass ? 'ok' : 'OVER TARGET');

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function bareList(dir: string): Promise<number> {
  const names = await fs.promises.readdir(dir);
  const stats = await Promise.all(names.map((n) => fs.promises.stat(path.join(dir, n))));
  return stats.length;
}

/** 1 MB files: a quarter random bytes, the rest log lines with random numbers (gzip to roughly half). */
function writeTree(root: string, megabytes: number): void {
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
  const panel = await makeTestPanel({ logLevel: 'silent', apiRateLimit: 0 });
  try {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const headers = await panel.bearerHeaders(owner);
    const volume = panel.daemon.volumePath(server.uuid);

    // files/list of 10,000 entries
    const big = path.join(volume, 'big');
    fs.mkdirSync(big);
    for (let i = 0; i < LIST_ENTRIES; i += 1) fs.writeFileSync(path.join(big, `file-${i}.log`), 'x'.repeat(i % 200));
    const url = `/api/client/servers/${server.uuid}/files/list?directory=%2Fbig`;
    const viaRoute = async () => {
      const res = await panel.app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`files/list answered ${res.statusCode}`);
    };
    const viaDaemon = () => panel.daemon.files.list(server.uuid, '/big');
    for (let i = 0; i < 3; i += 1) await Promise.all([bareList(big), viaDaemon(), viaRoute()].map((p) => p));
    const bare: number[] = [];
    const daemon: number[] = [];
    const route: number[] = [];
    // Interleaved, so background load hits all three alike.
    for (let i = 0; i < LIST_SAMPLES; i += 1) {
      bare.push(await time(() => bareList(big)));
      daemon.push(await time(viaDaemon));
      route.push(await time(viaRoute));
    }
    const [b, d, r] = [median(bare), median(daemon), median(route)];
    lines.push(
      `files/list ${LIST_ENTRIES} entries: route median ${r.toFixed(1)} ms (${ok(r < 100)}, target < 100 ms), ratio to bare readdir+stat ${(r / b).toFixed(2)}× (${ok(r / b <= 2)}, target ≤ 2×)`,
    );
    lines.push(
      `files/list ${LIST_ENTRIES} entries: daemon median ${d.toFixed(1)} ms (${(d / b).toFixed(2)}× bare), bare readdir+stat median ${b.toFixed(1)} ms`,
    );
    fs.rmSync(big, { recursive: true });

    // files/compress of a 200 MB tree
    writeTree(path.join(volume, 'tree'), TREE_MB);
    const out = path.join(panel.dataDir, 'reference.tar.gz');
    const tarRun = () => run('tar', ['-czf', out, '-C', volume, 'tree']);
    await tarRun(); // warms the page cache for both contenders
    const ours: number[] = [];
    const theirs: number[] = [];
    let archiveBytes = 0;
    for (let i = 0; i < COMPRESS_RUNS; i += 1) {
      ours.push(
        await time(async () => {
          const res = await panel.app.inject({
            method: 'POST',
            url: `/api/client/servers/${server.uuid}/files/compress`,
            headers,
            payload: { root: '/', files: ['tree'] },
          });
          if (res.statusCode !== 200) throw new Error(`files/compress answered ${res.statusCode}: ${res.body}`);
          const name = (res.json() as { attributes: { name: string; size: number } }).attributes;
          archiveBytes = name.size;
          fs.rmSync(path.join(volume, name.name));
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
    await panel.close();
  }
  return lines;
}
