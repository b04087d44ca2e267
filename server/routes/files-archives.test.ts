import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Header, Pax } from 'tar';
import yazl from 'yazl';
import { describe, expect } from 'vitest';
import { CANARY_S2, expectRefused } from '../test/files-support';
import { test } from '../test/fixtures';

/*
 * Decompressing a hostile archive never writes outside S1. The archives are built here (no binary
 * fixtures). Every refusal is a 4xx with nothing written into S1 (beyond the archive itself), no
 * staging directory left behind and nothing changed outside S1.
 */

type Member = {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'FIFO' | 'CharacterDevice' | 'SparseFile';
  body?: string | Buffer;
  linkpath?: string;
  mode?: number;
  pax?: boolean;
};

function tarOf(members: Member[]): Buffer {
  const blocks: Buffer[] = [];
  for (const m of members) {
    const body = typeof m.body === 'string' ? Buffer.from(m.body) : (m.body ?? Buffer.alloc(0));
    const type = m.type ?? 'File';
    const data = {
      path: m.path,
      type,
      size: body.length,
      linkpath: m.linkpath,
      mode: m.mode ?? (type === 'Directory' ? 0o755 : 0o644),
      mtime: new Date('2026-01-01T00:00:00Z'),
    };
    if (m.pax) blocks.push(new Pax({ path: m.path, size: body.length }).encode());
    const header = new Header(data as ConstructorParameters<typeof Header>[0]);
    header.encode();
    blocks.push(header.block as Buffer);
    blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** A zip built with yazl under placeholder names, then patched to the hostile name of equal length. */
async function zipOf(members: { name: string; body?: string | Buffer; mode?: number }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const renames: [string, string][] = [];
  members.forEach((m, i) => {
    const placeholder = `m${String(i).padStart(3, '0')}${'q'.repeat(Math.max(0, Buffer.byteLength(m.name) - 4))}`.slice(
      0,
      Math.max(4, Buffer.byteLength(m.name)),
    );
    renames.push([placeholder, m.name]);
    zip.addBuffer(typeof m.body === 'string' ? Buffer.from(m.body) : (m.body ?? Buffer.alloc(0)), placeholder, m.mode ? { mode: m.mode } : {});
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  let out = Buffer.concat(chunks);
  for (const [from, to] of renames) {
    const a = Buffer.from(from);
    const b = Buffer.from(to);
    let at = out.indexOf(a);
    while (at >= 0) {
      b.copy(out, at);
      at = out.indexOf(a, at + b.length);
    }
    out = Buffer.from(out);
  }
  return out;
}

const it = test
  /** Puts `archive` into S1 as `name` and decompresses it there. */
  .extend('decompress', async ({ files: f }) => async (name: string, archive: Buffer, root = '/') => {
    fs.writeFileSync(path.join(f.v1, root, name), archive);
    const listing = fs.readdirSync(path.join(f.v1, root)).sort();
    const res = await f.call('POST', 'decompress', { body: { root, file: name } });
    return { res, listing };
  })
  /** Decompresses `archive` and expects it refused with nothing written and no staging left. */
  .extend('expectNothingWritten', async ({ files: f, decompress }) => {
    return async (name: string, archive: Buffer, status: number | number[] = 400, root = '/') => {
      const { res, listing } = await decompress(name, archive, root);
      expectRefused(res, status);
      expect(fs.readdirSync(path.join(f.v1, root)).sort()).toEqual(listing);
      expect(fs.readdirSync(f.v1).filter((n) => n.startsWith('.aerie-'))).toEqual([]);
      return res;
    };
  });

/** What lies outside S1, taken before each test (and again by tests that plant more there). */
let before: Record<string, string>;
it.beforeEach(({ files: f }) => {
  f.put('keep.txt', 'K');
  before = f.snapshot();
});
it.afterEach(({ files: f }) => {
  expect(f.snapshot()).toEqual(before);
});

const gz = (b: Buffer) => zlib.gzipSync(b);

describe('hostile tar and tar.gz members', () => {
  const hostile = (s2: string): [string, Member[]][] => [
    [
      '../ member',
      [
        { path: 'ok.txt', body: 'fine' },
        { path: '../../escape.txt', body: 'PWNED' },
      ],
    ],
    ['../<S2> member', [{ path: `../${s2}/canary.txt`, body: 'PWNED' }]],
    ['a/../../b member', [{ path: 'a/../../b.txt', body: 'PWNED' }]],
    ['absolute member', [{ path: '/tmp/aerie-abs.txt', body: 'PWNED' }]],
    ['drive-letter member', [{ path: 'C:/abs.txt', body: 'PWNED' }]],
    ['backslash member', [{ path: '..\\..\\win.txt', body: 'PWNED' }]],
    [
      'symlink member then a file through it',
      [
        { path: 'link', type: 'SymbolicLink', linkpath: '../../' },
        { path: 'link/escape.txt', body: 'PWNED' },
      ],
    ],
    [
      'symlink to /etc then passwd',
      [
        { path: 'abs', type: 'SymbolicLink', linkpath: '/etc' },
        { path: 'abs/passwd', body: 'PWNED' },
      ],
    ],
    [
      'symlink to the S2 canary then a file of the same name',
      [
        { path: 'c', type: 'SymbolicLink', linkpath: `../${s2}/canary.txt` },
        { path: 'c', body: 'PWNED' },
      ],
    ],
    [
      'hard link to the S2 canary',
      [
        { path: 'h', type: 'Link', linkpath: `../${s2}/canary.txt` },
        { path: 'h', body: 'PWNED' },
      ],
    ],
    ['hard link to /etc/passwd', [{ path: 'h', type: 'Link', linkpath: '/etc/passwd' }]],
    ['FIFO member', [{ path: 'fifo', type: 'FIFO' }]],
    ['character device member', [{ path: 'dev', type: 'CharacterDevice' }]],
    [
      'directory then file of the same name',
      [
        { path: 'x/', type: 'Directory' },
        { path: 'x', body: 'file' },
      ],
    ],
    [
      'file then directory of the same name',
      [
        { path: 'x', body: 'file' },
        { path: 'x/y', body: 'nested' },
      ],
    ],
    ['newline in a name', [{ path: 'a\nb.txt', body: 'x' }]],
    ['.. member', [{ path: '..', type: 'Directory' }]],
  ];

  it.for(['tar', 'tar.gz'])('refuses every hostile %s member with nothing written', async (kind, { files: f, expectNothingWritten }) => {
    for (const [label, members] of hostile(f.s2.uuid)) {
      const tar = tarOf(members);
      const name = `evil.${kind}`;
      fs.writeFileSync(path.join(f.v1, name), kind === 'tar' ? tar : gz(tar));
      const probe = await f.call('POST', 'decompress', { body: { root: '/', file: name } });
      expect(probe.statusCode, `${label}: ${probe.body}`).toBe(400);
      const res = await expectNothingWritten(name, kind === 'tar' ? tar : gz(tar));
      expect(res.json().errors[0].detail, label).toMatch(/archive/);
      fs.rmSync(path.join(f.v1, `evil.${kind}`));
    }
    expect(fs.existsSync('/tmp/aerie-abs.txt')).toBe(false);
    expect(fs.readFileSync(path.join(f.v2, 'canary.txt'), 'utf8')).toBe(CANARY_S2);
  });

  it('cuts a pax name at a NUL byte (the tar parser does) and keeps the member inside S1', async ({ files: f, decompress }) => {
    const { res } = await decompress('nul.tar', tarOf([{ path: 'a\u0000/../../b.txt', body: 'x', pax: true }]));
    expect(res.statusCode).toBe(204);
    expect(f.read('a')).toBe('x');
  });

  it('extracts files and directories, strips setuid bits, and accepts . entries', async ({ files: f, decompress }) => {
    const archive = gz(
      tarOf([
        { path: './', type: 'Directory' },
        { path: './plugins/', type: 'Directory' },
        { path: './plugins/tool.sh', body: '#!/bin/sh\n', mode: 0o4755 },
        { path: 'world/region/r.0.0.mca', body: 'r' },
        { path: `${'d'.repeat(120)}/${'n'.repeat(120)}.txt`, body: 'long', pax: true },
      ]),
    );
    const { res } = await decompress('good.tgz', archive);
    expect(res.statusCode).toBe(204);
    expect(f.read('plugins/tool.sh')).toBe('#!/bin/sh\n');
    expect(fs.statSync(path.join(f.v1, 'plugins/tool.sh')).mode & 0o7777).toBe(0o755);
    expect(f.read('world/region/r.0.0.mca')).toBe('r');
    expect(f.read(`${'d'.repeat(120)}/${'n'.repeat(120)}.txt`)).toBe('long');
  });

  it('merges into existing folders but refuses to put a directory over a file or through a planted link', async ({
    files: f,
    decompress,
    expectNothingWritten,
  }) => {
    f.put('plugins/old.yml', 'old');
    f.put('world', 'I am a file');
    let res = (await decompress('a.tar', tarOf([{ path: 'plugins/new.yml', body: 'new' }]))).res;
    expect(res.statusCode).toBe(204);
    expect(f.read('plugins/old.yml') + f.read('plugins/new.yml')).toBe('oldnew');
    await expectNothingWritten(
      'b.tar',
      tarOf([
        { path: 'fresh.txt', body: 'x' },
        { path: 'world/level.dat', body: 'x' },
      ]),
    );
    fs.rmSync(path.join(f.v1, 'world'));
    f.link('world', f.v2);
    before = f.snapshot();
    res = await expectNothingWritten('c.tar', tarOf([{ path: 'world/canary.txt', body: 'PWNED' }]));
    expect(res.statusCode).toBe(400);
  });

  it('refuses an expansion bomb past the size cap and an entry-count bomb past the count cap', async ({ files: f, expectNothingWritten }) => {
    f.panel.daemon.files.extractLimits = { maxBytes: 1024 * 1024, maxEntries: 50 };
    const bomb = gz(
      tarOf([
        { path: 'small.txt', body: 'x' },
        { path: 'zeros.bin', body: Buffer.alloc(8 * 1024 * 1024) },
      ]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await expectNothingWritten('bomb.tar.gz', bomb);
    expect(res.json().errors[0].detail).toMatch(/expands to more than/);
    const many = gz(tarOf(Array.from({ length: 51 }, (_, i) => ({ path: `f${i}.txt`, body: '' }))));
    expect((await expectNothingWritten('many.tar.gz', many)).json().errors[0].detail).toMatch(/more than 50 entries/);
  });

  it("caps expansion at the server's disk limit", async ({ files: f, expectNothingWritten }) => {
    await f.panel.db.updateTable('servers').set({ disk: 1 }).where('id', '=', f.s1.id).execute();
    await f.panel.reconfigure(f.s1);
    await expectNothingWritten('big.tar.gz', gz(tarOf([{ path: 'zeros.bin', body: Buffer.alloc(2 * 1024 * 1024) }])));
  });

  it('refuses a GNU sparse member, a bare .gz and a truncated archive', async ({ expectNothingWritten }) => {
    await expectNothingWritten('sparse.tar', tarOf([{ path: 'sparse', type: 'SparseFile', body: 'x' }]));
    await expectNothingWritten('single.gz', gz(Buffer.from('just a gzipped text file\n'.repeat(100))));
    const good = gz(
      tarOf([
        { path: 'a.txt', body: 'a'.repeat(100_000) },
        { path: 'b.txt', body: 'b' },
      ]),
    );
    await expectNothingWritten('cut.tar.gz', good.subarray(0, good.length - 200));
    const plain = tarOf([{ path: 'a.txt', body: 'a'.repeat(5000) }]);
    await expectNothingWritten('cut.tar', plain.subarray(0, 1500));
    const garbage = Buffer.from(plain);
    garbage.write('garbage', 0);
    await expectNothingWritten('bad-checksum.tar', garbage);
  });
});

describe('hostile zip members', () => {
  it('refuses ../, absolute, backslash, symlink and special members with nothing written', async ({ files: f, expectNothingWritten }) => {
    const s2 = f.s2.uuid;
    const cases: { name: string; body?: string; mode?: number }[][] = [
      [
        { name: 'ok.txt', body: 'x' },
        { name: '../../escape.txt', body: 'PWNED' },
      ],
      [{ name: `../${s2}/canary.txt`, body: 'PWNED' }],
      [{ name: '/tmp/aerie-abs.txt', body: 'PWNED' }],
      [{ name: '..\\..\\win.txt', body: 'PWNED' }],
      [
        { name: 'link', body: '../../', mode: 0o120777 },
        { name: 'link/escape.txt', body: 'PWNED' },
      ],
      [
        { name: 'abs', body: '/etc', mode: 0o120777 },
        { name: 'abs/passwd', body: 'PWNED' },
      ],
      [{ name: 'fifo', mode: 0o010644 }],
    ];
    for (const members of cases) {
      await expectNothingWritten('evil.zip', await zipOf(members));
      fs.rmSync(path.join(f.v1, 'evil.zip'));
    }
    expect(fs.existsSync('/tmp/aerie-abs.txt')).toBe(false);
  });

  it('extracts a plain zip', async ({ files: f, decompress }) => {
    const { res } = await decompress(
      'ok.zip',
      await zipOf([
        { name: 'plugins/a.yml', body: 'a' },
        { name: 'b.txt', body: 'b' },
      ]),
    );
    expect(res.statusCode).toBe(204);
    expect(f.read('plugins/a.yml') + f.read('b.txt')).toBe('ab');
  });

  it('refuses a zip bomb and too many entries', async ({ files: f, expectNothingWritten }) => {
    f.panel.daemon.files.extractLimits = { maxBytes: 1024 * 1024, maxEntries: 20 };
    const bomb = await zipOf([{ name: 'zeros.bin', body: '\u0000'.repeat(4 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectNothingWritten('bomb.zip', bomb);
    await expectNothingWritten('many.zip', await zipOf(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, body: '' }))));
  });
});
