import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { CANARY_S2 } from '../test/files-support';
import { test } from '../test/fixtures';

/*
 * A path swapped while a request walks it never leads the request outside the volume (grey-box):
 * a separate process keeps swapping S1's `dir` between a real directory and a symlink to S2's
 * volume while requests hammer paths below it. A check-then-use implementation leaks or writes
 * S2's files here; a handle-based walk never does.
 */

const SWAPPER = `
const fs = require('fs');
const [v1, target] = process.argv.slice(1);
const dir = v1 + '/dir', real = v1 + '/dir.real', link = v1 + '/dir.link';
fs.symlinkSync(target, link);
const end = Date.now() + 60000;
let swaps = 0;
while (!fs.existsSync(v1 + '/stop') && Date.now() < end) {
  try { fs.renameSync(dir, real); fs.renameSync(link, dir); fs.renameSync(dir, link); fs.renameSync(real, dir); swaps++; } catch {}
}
try { fs.unlinkSync(link); } catch {}
console.log(swaps);
`;

test.beforeEach(({ files: f }) => {
  f.put('dir/y', 'mine');
  fs.writeFileSync(path.join(f.v2, 'y'), CANARY_S2);
  fs.writeFileSync(path.join(f.v2, 'gone.txt'), CANARY_S2);
});

test('never reads, lists, writes or deletes in S2 while a directory is swapped for a link', async ({ files: f }) => {
  const before = f.snapshot();
  const child = spawn(process.execPath, ['-e', SWAPPER, f.v1, f.v2], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const statuses: Record<number, number> = {};
  try {
    await new Promise((r) => setTimeout(r, 100));
    const requests = [
      () => f.call('POST', 'write', { query: { file: '/dir/x' }, raw: 'RACE' }),
      () => f.call('GET', 'contents', { query: { file: '/dir/y' } }),
      () => f.call('GET', 'download', { query: { file: '/dir/y' } }),
      () => f.call('GET', 'list', { query: { directory: '/dir' } }),
      () => f.call('POST', 'delete', { body: { root: '/dir', files: ['gone.txt'] } }),
      () => f.call('POST', 'copy', { body: { location: '/dir/y' } }),
      () => f.call('PUT', 'rename', { body: { root: '/dir', files: [{ from: 'y', to: 'y2' }] } }),
      () => f.call('PUT', 'rename', { body: { root: '/dir', files: [{ from: 'y2', to: 'y' }] } }),
    ];
    for (let round = 0; round < 100; round += 1) {
      const results = await Promise.all(requests.map((r) => r()));
      for (const res of results) {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        expect(res.body).not.toContain(CANARY_S2);
        expect(res.body).not.toContain('gone.txt');
        expect(res.statusCode).toBeLessThan(500);
      }
    }
  } finally {
    fs.writeFileSync(path.join(f.v1, 'stop'), '');
    await exited;
  }
  expect(Number(out.trim())).toBeGreaterThan(100);
  // Both outcomes happened: the race was real.
  expect(statuses[404] ?? 0).toBeGreaterThan(0);
  expect((statuses[200] ?? 0) + (statuses[204] ?? 0)).toBeGreaterThan(0);
  expect(f.snapshot()).toEqual(before);
}, 120_000);
