import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Header } from 'tar';
import { describe, expect } from 'vitest';
import { volumeUsage, type FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * A server's disk limit holds on every write path, and hard links to one file count once.
 * S1 gets a 1 MiB limit; usage is measured independently (`volumeUsage`) (allocated blocks, each inode
 * once, every entry and the root at least one block) and the headroom is set exactly with a filler file. ext4 and tmpfs allocate 4 KiB
 * blocks, so a file of N bytes costs N rounded up to 4 KiB: "1 byte over" is a body one byte
 * longer than the headroom, which needs one block more than there is.
 */

const LIMIT = 1024 * 1024;
const H = 64 * 1024;

/*
 * The helpers take the file fixture: the table of write paths below is built before any test
 * runs, so it cannot close over one.
 */

it.beforeEach(async ({ files: f }) => {
  await setDiskMiB(f, 1);
});

async function setDiskMiB(f: FileFixture, mib: number): Promise<void> {
  await f.panel.db.updateTable('servers').set({ disk: mib }).where('id', '=', f.s1.id).execute();
  await f.panel.reconfigure(f.s1);
}

/** A file system block: every entry takes at least one, even an empty file. */
const BLOCK = 4096;
const usage = (f: FileFixture): number => volumeUsage(f.v1);

/** Every path in S1 (temporary files included). */
function tree(f: FileFixture, dir = f.v1, prefix = ''): string[] {
  return fs.readdirSync(dir).flatMap((n) => {
    const rel = `${prefix}${n}`;
    return fs.lstatSync(path.join(dir, n)).isDirectory() ? [rel, ...tree(f, path.join(dir, n), `${rel}/`)] : [rel];
  });
}

type Reply = Awaited<ReturnType<FileFixture['call']>>;

/** Leaves exactly `bytes` of the 1 MiB limit free, with a filler file of zeros. */
function setHeadroom(f: FileFixture, bytes: number): void {
  fs.rmSync(path.join(f.v1, 'filler.bin'), { force: true });
  f.put('filler.bin', Buffer.alloc(LIMIT - usage(f) - bytes));
  expect(LIMIT - usage(f)).toBe(bytes);
}

function expectNoSpace(res: Reply): void {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().errors[0]).toEqual({
    code: 'InsufficientDiskSpaceException',
    status: '400',
    detail: 'There is not enough disk space available to complete this action.',
  });
}

const write = (f: FileFixture, file: string, size: number) =>
  f.call('POST', 'write', { query: { file }, raw: Buffer.alloc(size, 1), headers: { 'content-type': 'application/octet-stream' } });

function upload(f: FileFixture, size: number) {
  const b = 'quotaBoundary';
  const head = Buffer.from(
    `--${b}\r\nContent-Disposition: form-data; name="files"; filename="up.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const raw = Buffer.concat([head, Buffer.alloc(size, 3), Buffer.from(`\r\n--${b}--\r\n`)]);
  return f.call('POST', 'upload', { query: { directory: '/' }, raw, headers: { 'content-type': `multipart/form-data; boundary=${b}` } });
}

/** A .tar.gz of zeros holding `out.bin` of `size` bytes (tiny on disk, `size` once expanded). */
function tarGzOf(size: number): Buffer {
  const header = new Header({ path: 'out.bin', type: 'File', size, mode: 0o644, mtime: new Date('2026-01-01T00:00:00Z') });
  header.encode();
  return zlib.gzipSync(Buffer.concat([header.block as Buffer, Buffer.alloc(size + ((512 - (size % 512)) % 512)), Buffer.alloc(1024)]));
}

/** A .tar.gz of `count` empty files. */
function emptyFilesTarGz(count: number): Buffer {
  const headers = Array.from({ length: count }, (_, i) => {
    const header = new Header({ path: `e${i}.txt`, type: 'File', size: 0, mode: 0o644, mtime: new Date('2026-01-01T00:00:00Z') });
    header.encode();
    return header.block as Buffer;
  });
  return zlib.gzipSync(Buffer.concat([...headers, Buffer.alloc(1024)]));
}

function expectTooManyFiles(res: Reply, max: number): void {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().errors[0]).toEqual({
    code: 'InsufficientDiskSpaceException',
    status: '400',
    detail: `The server has too many files: it may hold at most ${max} files and folders.`,
  });
}

/** Each path: what it needs in the volume for a body of `size` bytes, then the request. */
const paths: [string, (f: FileFixture, size: number) => void, (f: FileFixture, size: number) => Promise<Reply>][] = [
  ['write', () => undefined, (f, size) => write(f, 'new.bin', size)],
  ['upload', () => undefined, (f, size) => upload(f, size)],
  ['copy', (f, size) => f.put('src.bin', Buffer.alloc(size, 2)), (f) => f.call('POST', 'copy', { body: { location: 'src.bin' } })],
  ['decompress', (f, size) => f.put('a.tar.gz', tarGzOf(size)), (f) => f.call('POST', 'decompress', { body: { root: '/', file: 'a.tar.gz' } })],
];

describe('every write path stops at the disk limit', () => {
  it.for(paths)(
    '%s: 1 byte and 10× over the headroom are refused with nothing left; exactly the headroom fits',
    async ([_label, prepare, run], { files: f }) => {
      for (const size of [H + 1, 10 * H]) {
        prepare(f, size);
        setHeadroom(f, H);
        const before = tree(f);
        expectNoSpace(await run(f, size));
        expect(tree(f)).toEqual(before);
        expect(usage(f)).toBe(LIMIT - H);
      }
      prepare(f, H);
      setHeadroom(f, H);
      const res = await run(f, H);
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect(tree(f).filter((n) => n.includes('.aerie-'))).toEqual([]);
      expect(usage(f)).toBe(LIMIT);
    },
  );

  it('compress: the archive counts, refused 1 byte and 10× over, fits exactly', async ({ files: f }) => {
    // Tune random (incompressible) content until the archive is 1 byte past a whole block.
    await setDiskMiB(f, 0);
    const data = randomBytes(300_000);
    let length = 150_000;
    let size = 0;
    for (let i = 0; i < 10 && size % 4096 !== 1; i += 1) {
      f.put('d/r.bin', data.subarray(0, length));
      const res = await f.call('POST', 'compress', { body: { root: '/d', files: ['r.bin'] } });
      size = res.json().attributes.size;
      fs.rmSync(path.join(f.v1, 'd', res.json().attributes.name));
      length += (4096 + 1 - (size % 4096)) % 4096;
    }
    expect(size % 4096).toBe(1);
    await setDiskMiB(f, 1);
    for (const headroom of [size - 1, Math.floor(size / 10 / 4096) * 4096]) {
      setHeadroom(f, headroom);
      const before = tree(f);
      expectNoSpace(await f.call('POST', 'compress', { body: { root: '/d', files: ['r.bin'] } }));
      expect(tree(f)).toEqual(before);
    }
    setHeadroom(f, size - 1 + 4096);
    const res = await f.call('POST', 'compress', { body: { root: '/d', files: ['r.bin'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attributes.size).toBe(size);
    expect(usage(f)).toBe(LIMIT);
  });

  it('refuses every write on a server already over its limit, but deletes and renames still work', async ({ files: f }) => {
    f.put('huge.bin', Buffer.alloc(2 * LIMIT));
    f.put('small.txt', 'x');
    expectNoSpace(await write(f, 'a.txt', 1));
    expectNoSpace(await write(f, 'empty.txt', 0));
    expectNoSpace(await f.call('POST', 'create-folder', { body: { root: '/', name: 'dir' } }));
    expectNoSpace(await f.call('POST', 'copy', { body: { location: 'small.txt' } }));
    expectNoSpace(await f.call('POST', 'compress', { body: { root: '/', files: ['small.txt'] } }));
    expect(tree(f).sort()).toEqual(['huge.bin', 'small.txt']);
    expect((await f.call('PUT', 'rename', { body: { root: '/', files: [{ from: 'small.txt', to: 'moved.txt' }] } })).statusCode).toBe(204);
    expect((await f.call('POST', 'delete', { body: { root: '/', files: ['huge.bin'] } })).statusCode).toBe(204);
    expect((await write(f, 'a.txt', 1)).statusCode).toBe(204);
  });

  it('lets an edit that does not grow a file through at the limit', async ({ files: f }) => {
    f.put('server.properties', Buffer.alloc(8192, 0x61));
    setHeadroom(f, 0);
    expect((await write(f, 'server.properties', 8000)).statusCode).toBe(204);
    expectNoSpace(await write(f, 'server.properties', 8193));
    expect(fs.statSync(path.join(f.v1, 'server.properties')).size).toBe(8000);
  });

  it('has no limit when disk is 0', async ({ files: f }) => {
    await setDiskMiB(f, 0);
    expect((await write(f, 'big.bin', 3 * LIMIT)).statusCode).toBe(204);
    f.put('b.tar.gz', tarGzOf(2 * LIMIT));
    expect((await f.call('POST', 'decompress', { body: { root: '/', file: 'b.tar.gz' } })).statusCode).toBe(204);
    expect(usage(f)).toBeGreaterThan(5 * LIMIT);
  });

  it('serialises parallel writes that each fit but together do not', async ({ files: f }) => {
    setHeadroom(f, H);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => write(f, `p${i}.bin`, 24 * 1024)));
    const ok = results.filter((r) => r.statusCode === 204);
    expect(ok).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 204)) expectNoSpace(r);
    expect(usage(f)).toBeLessThanOrEqual(LIMIT);
  });

  it('never lets its cached figure refuse a write, nor allow one near the limit', async ({ files: f }) => {
    setHeadroom(f, H);
    expect((await write(f, 'one.bin', 16 * 1024)).statusCode).toBe(204);
    // Space freed behind the daemon's back: the cached figure says no room, a fresh measure says yes.
    fs.rmSync(path.join(f.v1, 'filler.bin'));
    expect((await write(f, 'two.bin', 512 * 1024)).statusCode).toBe(204);
    expect((await write(f, 'three.bin', LIMIT - usage(f) - 16 * 1024)).statusCode).toBe(204);
    // Space taken behind its back while the cached figure is close to the limit.
    f.put('external.bin', Buffer.alloc(16 * 1024));
    expectNoSpace(await write(f, 'four.bin', 1));
    expect(usage(f)).toBe(LIMIT);
  });
});

describe('hard links count once', () => {
  it('does not count 200 links to one file 200 times', async ({ files: f }) => {
    f.put('world/big.dat', Buffer.alloc(256 * 1024, 7));
    fs.mkdirSync(path.join(f.v1, 'links'));
    for (let i = 0; i < 200; i += 1) fs.linkSync(path.join(f.v1, 'world/big.dat'), path.join(f.v1, 'links', `l${i}`));
    setHeadroom(f, H);
    expect((await write(f, 'fits.bin', H)).statusCode).toBe(204);
    expect(usage(f)).toBe(LIMIT);
  });
});

describe('every new entry counts, and a server holds a capped number of them', () => {
  it('charges a 0-byte file and an empty folder a block each', async ({ files: f }) => {
    setHeadroom(f, 2 * BLOCK);
    expect((await write(f, 'empty.txt', 0)).statusCode).toBe(204);
    expect((await f.call('POST', 'create-folder', { body: { root: '/', name: 'dir' } })).statusCode).toBe(204);
    expect(usage(f)).toBe(LIMIT);
    expectNoSpace(await write(f, 'empty2.txt', 0));
    expectNoSpace(await f.call('POST', 'create-folder', { body: { root: '/', name: 'dir2' } }));
    f.put('plugins/blank.yml', '');
    expect(tree(f).sort()).toEqual(['dir', 'empty.txt', 'filler.bin', 'plugins', 'plugins/blank.yml']);
  });

  it('refuses an archive of empty files past the entry cap (no disk limit) with nothing left, and every write path at the cap', async ({
    files: f,
  }) => {
    await setDiskMiB(f, 0);
    f.panel.daemon.files.maxEntries = 40;
    // The volume holds its root and the archive: 48 more entries do not fit in 40.
    f.put('many.tar.gz', emptyFilesTarGz(48));
    const before = tree(f);
    expectTooManyFiles(await f.call('POST', 'decompress', { body: { root: '/', file: 'many.tar.gz' } }), 40);
    expect(tree(f)).toEqual(before);
    // 2 + 38 = 40 fit exactly.
    fs.rmSync(path.join(f.v1, 'many.tar.gz'));
    f.put('some.tar.gz', emptyFilesTarGz(37));
    expect((await f.call('POST', 'decompress', { body: { root: '/', file: 'some.tar.gz' } })).statusCode).toBe(204);
    expect((await write(f, 'last.txt', 0)).statusCode).toBe(204);
    expect(tree(f)).toHaveLength(39);
    const full = tree(f);
    expectTooManyFiles(await write(f, 'one-more.txt', 0), 40);
    expectTooManyFiles(await upload(f, 1), 40);
    expectTooManyFiles(await f.call('POST', 'copy', { body: { location: 'last.txt' } }), 40);
    expectTooManyFiles(await f.call('POST', 'create-folder', { body: { root: '/', name: 'dir' } }), 40);
    expectTooManyFiles(await f.call('POST', 'compress', { body: { root: '/', files: ['last.txt'] } }), 40);
    expect(tree(f)).toEqual(full);
    // Replacing a file adds no entry.
    expect((await write(f, 'last.txt', 10)).statusCode).toBe(204);
  });
});
