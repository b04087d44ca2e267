import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { Volume } from './confined';
import { BLOCK, Budget, DiskQuotas, measureUsage, type Limits, type Usage } from './quota';
import { DaemonError } from '../types';

/** A volume in an empty temp dir, and the bytes its files take on disk. */
const it = test
  .extend('vol', async ({ tempDir: root }) => {
    fs.mkdirSync(path.join(root, 'vol'));
    return Volume.open(path.join(root, 'vol'));
  })
  .extend('allocated', async ({ vol }) => {
    // Each entry takes at least one block, whatever the file system reports.
    return (...rel: string[]) => rel.reduce((sum, r) => sum + Math.max(fs.lstatSync(path.join(vol.root, r)).blocks * 512, BLOCK), 0);
  });

const bytes = (n: number): Limits => ({ bytes: n, entries: Infinity });
const used = (b: number, entries = 0): Usage => ({ bytes: b, entries });

async function refusal(p: Promise<unknown>): Promise<string> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof DaemonError ? error.kind : String(error);
}

describe('measureUsage (sparse files count their blocks, hard links once, every entry at least a block)', () => {
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
    const expected = allocated('', 'big.dat', 'links', 'sparse.img', 'usr') + BLOCK * 3;
    // The root, big.dat (and its 100 other names), links, sparse.img, usr and the odd name.
    expect(await measureUsage(vol)).toEqual({ bytes: expected, entries: 6 });
    expect(expected).toBeLessThan(128 * 1024);
  });

  it('counts empty files, empty folders, links and the root itself as a block and an entry each', async ({ vol, allocated }) => {
    expect(await measureUsage(vol)).toEqual({ bytes: allocated(''), entries: 1 });
    for (let i = 0; i < 50; i += 1) fs.writeFileSync(path.join(vol.root, `empty${i}`), '');
    fs.mkdirSync(path.join(vol.root, 'folder'));
    fs.symlinkSync('empty0', path.join(vol.root, 'link'));
    expect(await measureUsage(vol)).toEqual({ bytes: allocated('', 'folder') + 51 * BLOCK, entries: 53 });
  });
});

describe('Budget', () => {
  it('charges whole blocks per file and refuses the block past the limit', async () => {
    const budget = new Budget(bytes(4 * BLOCK), used(BLOCK), true, () => Promise.resolve(used(0)));
    const meter = await budget.fileMeter();
    await meter(1);
    await meter(BLOCK - 1);
    await (
      await budget.fileMeter()
    )(BLOCK);
    // An empty file is not free: its entry and a block.
    await budget.fileMeter();
    expect(budget.usageAfter()).toEqual(used(4 * BLOCK, 3));
    expect(await refusal(budget.fileMeter())).toBe('no_space');
    expect(await refusal(budget.newDirectory())).toBe('no_space');
  });

  it('refuses the entry past the cap with its own message, though bytes are unlimited', async () => {
    const budget = new Budget({ bytes: Infinity, entries: 4 }, used(0, 2), true, () => Promise.resolve(used(0, 2)));
    await budget.newDirectory();
    await budget.fileMeter();
    const error = await budget.fileMeter().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DaemonError);
    expect((error as DaemonError).kind).toBe('no_space');
    expect((error as DaemonError).message).toBe('The server has too many files: it may hold at most 4 files and folders.');
    // A replaced file gives its entry back.
    budget.credit(BLOCK);
    await budget.fileMeter();
  });

  it('measures afresh before refusing on a cached figure, counting what it already wrote once', async () => {
    let measures = 0;
    // The cached figure (0) is trusted up to the margin; the volume then holds this operation's 3 blocks.
    const budget = new Budget(bytes(4 * BLOCK), used(0), false, () => {
      measures += 1;
      return Promise.resolve(used(3 * BLOCK, 1));
    });
    const meter = await budget.fileMeter();
    await meter(3 * BLOCK);
    expect(measures).toBe(0);
    await meter(1);
    expect(measures).toBe(1);
    expect(await refusal(meter(BLOCK))).toBe('no_space');
    expect(measures).toBe(1);
  });
});

describe('DiskQuotas', () => {
  function counted(usage: () => number, entries = () => 0) {
    let now = 1_000_000;
    const calls = { measures: 0 };
    const quotas = new DiskQuotas(
      () => {
        calls.measures += 1;
        return Promise.resolve({ bytes: usage(), entries: entries() });
      },
      () => now,
    );
    return { quotas, calls, advance: (ms: number) => (now += ms) };
  }

  it('measures once for a burst of writes far from the limit, again once the figure is old', async ({ vol }) => {
    const { quotas, calls, advance } = counted(() => 0);
    const quota = bytes(100 * 1024 * 1024);
    for (let i = 0; i < 5; i += 1) await quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(10_000));
    expect(calls.measures).toBe(1);
    advance(6_000);
    await quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(1));
    expect(calls.measures).toBe(2);
  });

  it('measures afresh when the cached headroom is close to the limit, and after a delete', async ({ vol }) => {
    let real = 0;
    const { quotas, calls } = counted(() => real);
    const quota = bytes(100 * BLOCK);
    await quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(95 * BLOCK));
    real = 95 * BLOCK;
    await quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(BLOCK));
    expect(calls.measures).toBe(2);
    real = 100 * BLOCK; // grown behind its back
    expect(await refusal(quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(1)))).toBe('no_space');
    expect(calls.measures).toBe(3);
    real = 0;
    quotas.forget('s');
    await quotas.run('s', vol, quota, async (b) => (await b.fileMeter())(99 * BLOCK));
    expect(calls.measures).toBe(4);
  });

  it('holds reservations beside each other and beside a running write, the placing write counting its own once', async ({ vol }) => {
    let real = 0;
    const { quotas } = counted(() => real);
    const limit = bytes(10 * BLOCK);
    const a = quotas.reserve('s', vol, limit);
    await (
      await a.fileMeter()
    )(6 * BLOCK);
    const b = quotas.reserve('s', vol, limit);
    expect(await refusal(b.fileMeter().then((meter) => meter(5 * BLOCK)))).toBe('no_space');
    b.release();
    expect(await refusal(quotas.run('s', vol, limit, (budget) => budget.charge(5 * BLOCK)))).toBe('no_space');
    await quotas.run('s', vol, limit, (budget) => budget.charge(6 * BLOCK), 'write', a);
    real = 6 * BLOCK;
    a.release();
    // What a body replaces is credited before it arrives: an edit that does not grow a file fits.
    const c = quotas.reserve('s', vol, limit);
    c.credit(3 * BLOCK);
    const meter = await c.fileMeter();
    await meter(7 * BLOCK);
    expect(await refusal(meter(BLOCK))).toBe('no_space');
    c.release();
    await quotas.run('s', vol, limit, (budget) => budget.charge(4 * BLOCK));
  });

  it("holds a received file's entry too, refusing the file past the entry cap until the holder lets go", async ({ vol }) => {
    const { quotas } = counted(
      () => 0,
      () => 8,
    );
    const limits = { bytes: 0, entries: 10 };
    const a = quotas.reserve('s', vol, limits);
    await a.fileMeter();
    await a.fileMeter();
    const b = quotas.reserve('s', vol, limits);
    const error = await b.fileMeter().then(
      () => null,
      (e: unknown) => e as DaemonError,
    );
    expect(error?.message).toMatch(/too many files/);
    a.release();
    await (
      await b.fileMeter()
    )(BLOCK);
    b.release();
  });

  it('measures afresh under a new limit rather than trust a figure taken under another', async ({ vol }) => {
    const { quotas, calls } = counted(() => 0);
    await quotas.run('s', vol, { bytes: 0, entries: 1000 }, (b) => b.charge(BLOCK));
    await quotas.run('s', vol, { bytes: 100 * BLOCK, entries: 1000 }, (b) => b.charge(BLOCK));
    expect(calls.measures).toBe(2);
  });

  it('never measures a server without limits', async ({ vol }) => {
    const { quotas, calls } = counted(() => 0);
    await quotas.run('u', vol, { bytes: 0, entries: 0 }, async (b) => (await b.fileMeter())(10 * 1024 ** 3));
    await quotas.run('u', vol, { bytes: 0, entries: 0 }, (b) => b.charge(1));
    expect(calls.measures).toBe(0);
  });

  it('caps the entries of a server without a disk limit, from the cached figure too', async ({ vol }) => {
    let entries = 0;
    const { quotas, calls } = counted(
      () => 0,
      () => entries,
    );
    const limits = { bytes: 0, entries: 100 };
    // Each file appears on disk once charged.
    const files = (n: number) => async (b: Budget) => {
      for (let i = 0; i < n; i += 1) {
        await b.fileMeter();
        entries += 1;
      }
    };
    await quotas.run('s', vol, limits, files(80));
    expect(calls.measures).toBe(1);
    // The cached 80 is trusted up to the margin (10 of 100), then measured afresh and refused at the cap.
    const error = await quotas.run('s', vol, limits, files(30)).then(
      () => null,
      (e: unknown) => e as DaemonError,
    );
    expect(error?.message).toMatch(/too many files/);
    expect(calls.measures).toBe(2);
  });
});
