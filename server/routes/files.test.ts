import fs from 'node:fs';
import path from 'node:path';
import { list as listTar } from 'tar';
import { describe, expect } from 'vitest';
import { fileListSchema, fileObjectSchema } from '../../src/contract';
import { it } from '../test/fixtures';

describe('files/list', () => {
  it('lists every entry with real stat fields, directories first', async ({ files: f }) => {
    f.put('b.txt', 'hello');
    f.put('a/nested.yml', 'k: v');
    fs.chmodSync(path.join(f.v1, 'b.txt'), 0o640);
    f.link('l', 'b.txt');
    const res = await f.call('GET', 'list', { query: { directory: '/' } });
    expect(res.statusCode).toBe(200);
    const body = fileListSchema.parse(res.json());
    expect(body.data.map((e) => e.attributes.name)).toEqual(['a', 'b.txt', 'l']);
    const [dir, file, link] = body.data.map((e) => e.attributes);
    expect(dir).toMatchObject({ mode: 'drwxr-xr-x', mode_bits: '755', is_file: false, is_symlink: false, mimetype: 'inode/directory' });
    expect(file).toMatchObject({
      mode: '-rw-r-----',
      mode_bits: '640',
      size: 5,
      is_file: true,
      is_symlink: false,
      mimetype: 'text/plain; charset=utf-8',
    });
    expect(file?.modified_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(link).toMatchObject({ is_symlink: true, is_file: true, mode: 'Lrwxrwxrwx' });
  });

  it('defaults to the root, lists nested directories, and has no cap on the count', async ({ files: f }) => {
    for (let i = 0; i < 300; i += 1) f.put(`many/f${i}.txt`);
    const root = await f.call('GET', 'list');
    expect(root.json().data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['many']);
    const res = await f.call('GET', 'list', { query: { directory: 'many' } });
    expect(res.json().data).toHaveLength(300);
  });

  it('sends a long listing in slices whose bytes are exactly one JSON document', async ({ files: f }) => {
    // Past the length where lists are streamed, with names JSON must escape in every slice.
    for (let i = 0; i < 1_234; i += 1) f.put(`long/"q"\\ ${String(i).padStart(4, '0')}.txt`, 'x'.repeat(i % 7));
    const res = await f.call('GET', 'list', { query: { directory: '/long' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = fileListSchema.parse(JSON.parse(res.body));
    expect(body.data).toHaveLength(1_234);
    expect(body.data.map((e) => e.attributes.name)).toEqual(Array.from({ length: 1_234 }, (_, i) => `"q"\\ ${String(i).padStart(4, '0')}.txt`));
    expect(body.data[1_233]?.attributes.size).toBe(1_233 % 7);
    expect(res.body).toBe(JSON.stringify(body));
  });

  it('answers 404 for a missing directory and for a file', async ({ files: f }) => {
    f.put('file.txt');
    for (const directory of ['/nope', '/file.txt']) {
      const res = await f.call('GET', 'list', { query: { directory } });
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].code).toBe('NotFoundHttpException');
    }
  });
});

describe('files/contents', () => {
  it('returns the raw bytes as text/plain and logs server:file.read', async ({ files: f }) => {
    f.put('server.properties', 'motd=hi\n');
    const res = await f.call('GET', 'contents', { query: { file: '/server.properties' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('motd=hi\n');
    expect(await f.events()).toEqual([{ event: 'server:file.read', properties: { file: '/server.properties' } }]);
  });

  // attacks T-DOS-4 (editor reads capped)
  it('answers 404 when missing, 400 for a directory, 422 without a file, 400 above the cap', async ({ makeFiles }) => {
    const f = await makeFiles({ maxEditBytes: 10 });
    f.put('dir/x');
    f.put('big.txt', '12345678901');
    f.put('ok.txt', '1234567890');
    expect((await f.call('GET', 'contents', { query: { file: 'nope' } })).statusCode).toBe(404);
    expect((await f.call('GET', 'contents', { query: { file: 'dir' } })).statusCode).toBe(400);
    expect((await f.call('GET', 'contents')).statusCode).toBe(422);
    const big = await f.call('GET', 'contents', { query: { file: 'big.txt' } });
    expect(big.statusCode).toBe(400);
    expect(big.json().errors[0]).toMatchObject({ code: 'FileSizeTooLargeException', meta: { max_bytes: 10 } });
    expect((await f.call('GET', 'contents', { query: { file: 'ok.txt' } })).body).toBe('1234567890');
    expect(await f.events()).toEqual([{ event: 'server:file.read', properties: { file: 'ok.txt' } }]);
  });

  it('refuses a FIFO quickly instead of blocking', async ({ files: f }) => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(f.v1, 'pipe')]);
    for (const endpoint of ['contents', 'download']) {
      const res = await f.call('GET', endpoint, { query: { file: 'pipe' } });
      expect(res.statusCode).toBe(400);
    }
    expect((await f.call('POST', 'copy', { body: { location: 'pipe' } })).statusCode).toBe(404);
    expect((await f.call('POST', 'write', { query: { file: 'pipe' }, raw: 'x' })).statusCode).toBe(400);
    // Special files are left out of archives rather than read.
    expect((await f.call('POST', 'compress', { body: { root: '/', files: ['pipe'] } })).statusCode).toBe(200);
  });
});

describe('files/write', () => {
  it('creates and overwrites files (creating parents), keeps the mode, and logs server:file.write', async ({ files: f }) => {
    let res = await f.call('POST', 'write', { query: { file: '/config/new.yml' }, raw: 'a: 1\n' });
    expect(res.statusCode).toBe(204);
    expect(f.read('config/new.yml')).toBe('a: 1\n');
    expect(fs.statSync(path.join(f.v1, 'config/new.yml')).mode & 0o777).toBe(0o644);
    f.put('start.sh', 'old');
    fs.chmodSync(path.join(f.v1, 'start.sh'), 0o755);
    res = await f.call('POST', 'write', { query: { file: 'start.sh' }, raw: 'new', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(204);
    expect(f.read('start.sh')).toBe('new');
    expect(fs.statSync(path.join(f.v1, 'start.sh')).mode & 0o777).toBe(0o755);
    res = await f.call('POST', 'write', { query: { file: 'empty.txt' } });
    expect(res.statusCode).toBe(204);
    expect(f.read('empty.txt')).toBe('');
    expect((await f.events()).map((e) => e.properties.file)).toEqual(['/config/new.yml', 'start.sh', 'empty.txt']);
    expect(fs.readdirSync(f.v1).filter((n) => n.startsWith('.aerie-'))).toEqual([]);
  });

  it('works with a browser session and its CSRF header', async ({ files: f }) => {
    const headers = await f.panel.sessionHeaders(f.owner);
    const res = await f.call('POST', 'write', { query: { file: 'a.txt' }, raw: 'x', headers });
    expect(res.statusCode).toBe(204);
  });

  it('answers 400 for a directory and 413 above the limit with nothing written', async ({ makeFiles }) => {
    const f = await makeFiles({ maxUploadBytes: 8 });
    f.put('dir/x');
    f.put('keep.txt', 'original');
    expect((await f.call('POST', 'write', { query: { file: 'dir' }, raw: 'x' })).statusCode).toBe(400);
    const res = await f.call('POST', 'write', { query: { file: 'keep.txt' }, raw: '123456789' });
    expect(res.statusCode).toBe(413);
    expect(f.read('keep.txt')).toBe('original');
    expect(fs.readdirSync(f.v1).sort()).toEqual(['dir', 'keep.txt']);
  });
});

describe('files/copy', () => {
  it('names copies as the reference panel and logs server:file.copy', async ({ files: f }) => {
    f.put('server.properties', 'p');
    f.put('world.tar.gz', 'w');
    f.put('README', 'r');
    for (const location of ['server.properties', '/server.properties', 'world.tar.gz', 'README']) {
      expect((await f.call('POST', 'copy', { body: { location } })).statusCode).toBe(204);
    }
    expect(fs.readdirSync(f.v1).sort()).toEqual(
      [
        'README',
        'README copy',
        'server copy 1.properties',
        'server copy.properties',
        'server.properties',
        'world copy.tar.gz',
        'world.tar.gz',
      ].sort(),
    );
    expect(f.read('server copy 1.properties')).toBe('p');
    expect((await f.events())[0]).toEqual({ event: 'server:file.copy', properties: { file: 'server.properties' } });
  });

  it('answers 404 for a directory or missing file and 422 without a location', async ({ files: f }) => {
    f.put('dir/x');
    expect((await f.call('POST', 'copy', { body: { location: 'dir' } })).statusCode).toBe(404);
    expect((await f.call('POST', 'copy', { body: { location: 'nope' } })).statusCode).toBe(404);
    expect((await f.call('POST', 'copy', { body: {} })).statusCode).toBe(422);
  });
});

describe('files/delete', () => {
  it('deletes several files and folders recursively and logs server:file.delete', async ({ files: f }) => {
    f.put('a.txt');
    f.put('dir/sub/deep.txt');
    f.put('keep.txt');
    const res = await f.call('POST', 'delete', { body: { root: '/', files: ['a.txt', 'dir', 'missing'] } });
    expect(res.statusCode).toBe(204);
    expect(fs.readdirSync(f.v1)).toEqual(['keep.txt']);
    expect(await f.events()).toEqual([{ event: 'server:file.delete', properties: { directory: '/', files: ['a.txt', 'dir'] } }]);
  });

  it('answers 422 for an empty list and 400 for the root itself', async ({ files: f }) => {
    expect((await f.call('POST', 'delete', { body: { root: '/', files: [] } })).statusCode).toBe(422);
    for (const files of [['.'], ['/'], ['a/..']]) {
      expect((await f.call('POST', 'delete', { body: { root: '/', files } })).statusCode).toBe(400);
    }
    expect(fs.existsSync(f.v1)).toBe(true);
  });
});

describe('files/create-folder', () => {
  it('creates nested folders, refuses an existing name, and logs server:file.create-directory', async ({ files: f }) => {
    expect((await f.call('POST', 'create-folder', { body: { root: '/', name: 'plugins' } })).statusCode).toBe(204);
    expect((await f.call('POST', 'create-folder', { body: { root: '/plugins', name: 'a/b' } })).statusCode).toBe(204);
    expect(fs.statSync(path.join(f.v1, 'plugins/a/b')).isDirectory()).toBe(true);
    const again = await f.call('POST', 'create-folder', { body: { root: '/', name: 'plugins' } });
    expect(again.statusCode).toBe(400);
    f.put('file.txt');
    expect((await f.call('POST', 'create-folder', { body: { root: '/', name: 'file.txt/x' } })).statusCode).toBe(400);
    expect((await f.call('POST', 'create-folder', { body: { root: '/' } })).statusCode).toBe(422);
    expect((await f.events())[1]).toEqual({ event: 'server:file.create-directory', properties: { name: 'a/b', directory: '/plugins' } });
  });
});

describe('files/rename', () => {
  it('renames and moves within the volume and logs server:file.rename', async ({ files: f }) => {
    f.put('a.txt', 'A');
    f.put('dir/b.txt', 'B');
    const files = [
      { from: 'a.txt', to: 'renamed.txt' },
      { from: 'dir/b.txt', to: 'moved/b.txt' },
      { from: 'missing', to: 'whatever' },
    ];
    const res = await f.call('PUT', 'rename', { body: { root: '/', files } });
    expect(res.statusCode).toBe(204);
    expect(f.read('renamed.txt')).toBe('A');
    expect(f.read('moved/b.txt')).toBe('B');
    expect(f.exists('whatever')).toBe(false);
    expect(await f.events()).toEqual([{ event: 'server:file.rename', properties: { directory: '/', files: files.slice(0, 2) } }]);
  });

  it('moves with ../ inside the volume', async ({ files: f }) => {
    f.put('dir/c.txt', 'C');
    expect((await f.call('PUT', 'rename', { body: { root: '/dir', files: [{ from: 'c.txt', to: '../c.txt' }] } })).statusCode).toBe(204);
    expect(f.read('c.txt')).toBe('C');
  });

  // attacks T-FS-4
  it('refuses an existing destination, a directory into itself, and the root', async ({ files: f }) => {
    f.put('a.txt');
    f.put('b.txt');
    f.put('dir/x');
    for (const files of [
      [{ from: 'a.txt', to: 'b.txt' }],
      [{ from: 'dir', to: 'dir/inner' }],
      [{ from: '.', to: 'x' }],
      [{ from: 'a.txt', to: '/' }],
    ]) {
      const res = await f.call('PUT', 'rename', { body: { root: '/', files } });
      expect(res.statusCode).toBe(400);
    }
    expect(f.exists('a.txt') && f.exists('b.txt') && f.exists('dir/x')).toBe(true);
  });
});

describe('files/compress and files/decompress', () => {
  it('compresses into root as archive-<timestamp>.tar.gz and extracts it again', async ({ files: f }) => {
    f.put('world/level.dat', Buffer.from([0, 1, 2, 255]));
    f.put('world/region/r.0.0.mca', 'region');
    f.put('server.properties', 'p');
    const res = await f.call('POST', 'compress', { body: { root: '/', files: ['world', 'server.properties'] } });
    expect(res.statusCode).toBe(200);
    const archive = fileObjectSchema.parse(res.json()).attributes;
    expect(archive.name).toBe('archive-2026-03-01T120000+0000.tar.gz');
    expect(archive.mimetype).toBe('application/tar+gzip');
    expect(archive.size).toBe(fs.statSync(path.join(f.v1, archive.name)).size);

    const second = await f.call('POST', 'compress', { body: { root: '/', files: ['server.properties'] } });
    expect(second.json().attributes.name).toBe('archive-2026-03-01T120000+0000-1.tar.gz');

    fs.mkdirSync(path.join(f.v1, 'out'));
    fs.renameSync(path.join(f.v1, archive.name), path.join(f.v1, 'out', archive.name));
    const dec = await f.call('POST', 'decompress', { body: { root: '/out', file: archive.name } });
    expect(dec.statusCode).toBe(204);
    expect(fs.readFileSync(path.join(f.v1, 'out/world/level.dat'))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(f.read('out/world/region/r.0.0.mca')).toBe('region');
    expect(f.read('out/server.properties')).toBe('p');
    expect(fs.readdirSync(path.join(f.v1, 'out')).filter((n) => n.startsWith('.aerie-'))).toEqual([]);
    const log = await f.events();
    expect(log[0]).toEqual({ event: 'server:file.compress', properties: { directory: '/', files: ['world', 'server.properties'] } });
    expect(log[2]).toEqual({ event: 'server:file.decompress', properties: { directory: '/out', files: archive.name } });
  });

  // Attacks T-SBX-UID: a tenant's setuid file must not leave the volume as one.
  it('stores permission bits only: no setuid, setgid or sticky bit in an archive', async ({ files: f }) => {
    f.put('tool', '#!/bin/sh\n');
    fs.chmodSync(path.join(f.v1, 'tool'), 0o6755);
    const res = await f.call('POST', 'compress', { body: { root: '/', files: ['tool'] } });
    expect(res.statusCode).toBe(200);
    const modes: number[] = [];
    await listTar({ file: path.join(f.v1, res.json().attributes.name), onReadEntry: (entry) => modes.push(entry.mode ?? -1) });
    expect(modes).toEqual([0o755]);
  });

  it('compresses relative to a sub-directory root', async ({ files: f }) => {
    f.put('plugins/a/config.yml', 'c');
    const res = await f.call('POST', 'compress', { body: { root: '/plugins', files: ['a'] } });
    expect(res.statusCode).toBe(200);
    expect(f.exists(`plugins/${res.json().attributes.name}`)).toBe(true);
  });

  it('answers 404 for a missing member or archive, 400 for an unknown format, 422 for no files', async ({ files: f }) => {
    f.put('notes.txt', 'just text, not an archive');
    expect((await f.call('POST', 'compress', { body: { root: '/', files: ['missing'] } })).statusCode).toBe(404);
    expect((await f.call('POST', 'compress', { body: { root: '/', files: [] } })).statusCode).toBe(422);
    expect((await f.call('POST', 'decompress', { body: { root: '/', file: 'missing.zip' } })).statusCode).toBe(404);
    const unknown = await f.call('POST', 'decompress', { body: { root: '/', file: 'notes.txt' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].detail).toMatch(/format/);
    expect(fs.readdirSync(f.v1)).toEqual(['notes.txt']);
  });
});
