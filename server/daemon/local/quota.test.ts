import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { Volume } from './confined';
import { BLOCK, Budget, DiskQuotas, measureUsage } from './quota';
import { DaemonError } from '../types';

/** A volume in an empty temp dir, and the bytes its files take on disk. */
const it = test
  .extend('vol', async ({ tempDir: root }) => {
    fs.mkdirSync(path.join(root, 'vol'));
    return Volume.open(path.join(root, 'vol'));
  })
  .extend('allocated', async ({ vol }) => {
    return (...rel: string[]) => rel.reduce((sum, r) => sum + fs.lstatSync(path.join(vol.root, r)).blocks * 512, 0);
  });

async function refusal(p: Promise<unknown>): Promise<string> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof DaemonError ? error.kind : String(error);
}

describe('measureUsage (sparse files count their blocks, hard links once)', () => {
  it('counts allocated blocks, each inode once, never through a link, names that are not UTF-8 included', async ({ vol, allocated }) => {
    const v = vol.root;
    fs.writeFileSync(path.join(v, 'big.dat'), Buffer.alloc(64 * 1024, 1));
    fs.mkdirSync(path.join(v, 'links'));
    for (let i = 0; i < 100; i += 1) fs.linkSync(path.join(v, 'big.dat'), path.join(v, 'links', `l${i}`));
    // A 1 TiB sparse file holds no blocks; a link to a large tree outside adds nothing.
    const sparse = fs.openSync(path.join(v, 'sparse.img'), 'w');
    fs.ftruncateSync(sparse, 1024 ** 4);
    fs.closeSync(sparse);
    fs.symlinkSync('/usr', path.join(v, 'usr'));
    fs.writeFileSync(Buffer.concat([Buffer.from(`${v}/`), Buffer.from([0x66, 0xff, 0xfe])]), Buffer.alloc(BLOCK * 3, 2));
    const expected = allocated('big.dat', 'links', 'sparse.img', 'usr') + BLOCK * 3;
    expect(await measureUsage(vol)).toBe(expected);
    expect(expected).toBeLessThan(128 * 1024);
  });
});

describe('Budget', () => {
  it('charges whole blocks per file and refuses the block past the limit', async () => {
    const budget = new Budget(3 * BLOCK, BLOCK, true, () => Promise.resolve(0));
    const meter = budget.fileMeter();
    await meter(1);
    await meter(BLOCK - 1);
    await budget.fileMeter()(BLOCK);
    expect(budget.usageAfter()).toBe(3 * BLOCK);
    expect(await refusal(budget.fileMeter()(1))).toBe('no_space');
  });

  it('measures afresh before refusing on a cached figure, counting what it already wrote once', async () => {
    let measures = 0;
    // The cached figure (0) is trusted up to the margin; the volume then holds this operation's 3 blocks.
    const budget = new Budget(4 * BLOCK, 0, false, () => {
      measures += 1;
      return Promise.resolve(3 * BLOCK);
    });
    const meter = budget.fileMeter();
    await meter(3 * BLOCK);
    expect(measures).toBe(0);
    await meter(1);
    expect(measures).toBe(1);
    expect(await refusal(meter(BLOCK))).toBe('no_space');
    expect(measures).toBe(1);
  });
});

describe('DiskQuotas', () => {
  function counted(usage: () => number) {
    let now = 1_000_000;
    const calls = { measures: 0 };
    const quotas = new DiskQuotas(
      () => {
        calls.measures += 1;
        return Promise.resolve(usage());
      },
      () => now,
    );
    return { quotas, calls, advance: (ms: number) => (now += ms) };
  }

  it('measures once for a burst of writes far from the limit, again once the figure is old', async ({ vol }) => {
    const { quotas, calls, advance } = counted(() => 0);
    const quota = 100 * 1024 * 1024;
    for (let i = 0; i < 5; i += 1) await quotas.run('s', vol, quota, (b) => b.fileMeter()(10_000));
    expect(calls.measures).toBe(1);
    advance(6_000);
    await quotas.run('s', vol, quota, (b) => b.fileMeter()(1));
    expect(calls.measures).toBe(2);
  });

  it('measures afresh when the cached headroom is close to the limit, and after a delete', async ({ vol }) => {
    let real = 0;
    const { quotas, calls } = counted(() => real);
    const quota = 100 * BLOCK;
    await quotas.run('s', vol, quota, (b) => b.fileMeter()(95 * BLOCK));
    real = 95 * BLOCK;
    await quotas.run('s', vol, quota, (b) => b.fileMeter()(BLOCK));
    expect(calls.measures).toBe(2);
    real = 100 * BLOCK; // grown behind its back
    expect(await refusal(quotas.run('s', vol, quota, (b) => b.fileMeter()(1)))).toBe('no_space');
    expect(calls.measures).toBe(3);
    real = 0;
    quotas.forget('s');
    await quotas.run('s', vol, quota, (b) => b.fileMeter()(99 * BLOCK));
    expect(calls.measures).toBe(4);
  });

  it('holds reservations beside each other and beside a running write, the placing write counting its own once', async ({ vol }) => {
    let real = 0;
    const { quotas } = counted(() => real);
    const limit = 10 * BLOCK;
    const a = quotas.reserve('s', vol, limit);
    await a.fileMeter()(6 * BLOCK);
    const b = quotas.reserve('s', vol, limit);
    expect(await refusal(b.fileMeter()(5 * BLOCK))).toBe('no_space');
    expect(await refusal(quotas.run('s', vol, limit, (budget) => budget.charge(5 * BLOCK)))).toBe('no_space');
    await quotas.run('s', vol, limit, (budget) => budget.charge(6 * BLOCK), 'write', a);
    real = 6 * BLOCK;
    a.release();
    // What a body replaces is credited before it arrives: an edit that does not grow a file fits.
    b.credit(3 * BLOCK);
    await b.fileMeter()(7 * BLOCK);
    expect(await refusal(b.fileMeter()(BLOCK))).toBe('no_space');
    b.release();
    await quotas.run('s', vol, limit, (budget) => budget.charge(4 * BLOCK));
  });

  it('never measures an unlimited server', async ({ vol }) => {
    const { quotas, calls } = counted(() => 0);
    await quotas.run('u', vol, 0, (b) => b.fileMeter()(10 * 1024 ** 3));
    await quotas.run('u', vol, 0, (b) => b.charge(1));
    expect(calls.measures).toBe(0);
  });
});
