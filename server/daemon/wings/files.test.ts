import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWingsDouble, wingsError, wingsStat, type WingsDouble } from '../../test/wings-double';
import { outcome, uploads } from '../../test/daemon-contract/support';
import { WingsNode } from '.';

/* Wings fidelity of the file manager: each call as Wings' routes take it, each answer as Wings writes it (peers.md §4.3). */

let wings: WingsDouble;
let node: WingsNode;
const s = randomUUID();
const at = (rest: string) => `/api/servers/${s}/files/${rest}`;
const json = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

beforeEach(async () => {
  wings = await startWingsDouble();
  node = new WingsNode({ name: 'node-2', baseUrl: wings.url, token: () => wings.token });
});
afterEach(() => wings.close());

describe('reading', () => {
  it("lists a directory with the token alone, parsing Wings' stat objects and RFC 3339 times", async () => {
    const entries = await node.files.list(s, '/plugins dir');
    const request = wings.last('GET /api/servers/:server/files/list-directory');
    expect(request.path).toBe(at('list-directory'));
    expect(request.query.get('directory')).toBe('/plugins dir');
    expect(request.headers.authorization).toBe(`Bearer ${wings.token}`);
    expect(request.headers.accept).toBe('application/json');
    expect(entries).toEqual([
      expect.objectContaining({
        name: 'plugins',
        isDirectory: true,
        isFile: false,
        mode: 'drwxr-xr-x',
        modeBits: '755',
        mimetype: 'inode/directory',
      }),
      {
        name: 'server.properties',
        mode: '-rw-r--r--',
        modeBits: '644',
        size: 11,
        isFile: true,
        isSymlink: false,
        isDirectory: false,
        mimetype: 'text/plain; charset=utf-8',
        createdMs: Date.parse('2026-03-01T12:00:00Z'),
        modifiedMs: Date.parse('2026-03-01T12:30:00Z'),
      },
    ]);
  });

  it('lists 10,000 entries, and refuses a listing Wings would not write', async () => {
    wings.answer('GET /api/servers/:server/files/list-directory', {
      status: 200,
      json: Array.from({ length: 10_000 }, (_, i) => wingsStat(`file-${i}.txt`)),
    });
    expect(await node.files.list(s, '/')).toHaveLength(10_000);
    wings.answer('GET /api/servers/:server/files/list-directory', { status: 200, json: [{ ...wingsStat('x'), modified: 'yesterday' }] });
    expect(await outcome(node.files.list(s, '/'))).toBe('unavailable');
  });

  it('refuses a listing with any garbled entry: an impossible time, a missing or mistyped field, a non-object', async () => {
    const garbled: unknown[] = [
      { ...wingsStat('x'), created: '2026-13-45T99:99:99Z' },
      { ...wingsStat('x'), modified: '2026-03-01 12:00:00' },
      { ...wingsStat('x'), size: '11' },
      { ...wingsStat('x'), mime: undefined },
      { ...wingsStat('x'), symlink: 'false' },
      null,
      ['x'],
      'x',
    ];
    for (const entry of garbled) {
      wings.answer('GET /api/servers/:server/files/list-directory', { status: 200, json: [wingsStat('ok'), entry] });
      expect(await outcome(node.files.list(s, '/')), JSON.stringify(entry)).toBe('unavailable');
    }
    wings.answer('GET /api/servers/:server/files/list-directory', { status: 200, json: { data: [wingsStat('ok')] } });
    expect(await outcome(node.files.list(s, '/'))).toBe('unavailable');
  });

  it('reads contents up to maxBytes, judged by Content-Length and by counting', async () => {
    expect((await node.files.read(s, 'dir/config.yml', 1024)).toString()).toBe('key: value\n');
    expect(wings.last('GET /api/servers/:server/files/contents').query.get('file')).toBe('dir/config.yml');
    expect(await outcome(node.files.read(s, 'dir/config.yml', 10))).toBe('too_large');
    // No Content-Length (chunked): counted as it comes.
    wings.answer('GET /api/servers/:server/files/contents', (_request, res) => {
      res.writeHead(200, { 'x-mime-type': 'text/plain' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    });
    expect(await outcome(node.files.read(s, 'big.log', 1000))).toBe('too_large');
  });

  it("maps Wings' refusals of a read: a directory is 400, a missing file 404", async () => {
    wings.answer('GET /api/servers/:server/files/contents', wingsError(400, 'Cannot perform action: file is a directory.'));
    expect(await node.files.read(s, 'dir', 1024).catch((e: unknown) => e)).toMatchObject({
      kind: 'bad_request',
      message: 'Cannot perform action: file is a directory.',
    });
    wings.answer('GET /api/servers/:server/files/contents', wingsError(404, 'The requested resource was not found on the system.'));
    expect(await outcome(node.files.read(s, 'missing', 1024))).toBe('not_found');
  });

  it("opens a file for download with its stat from the parent's listing", async () => {
    const { stat, stream } = await node.files.open(s, 'server.properties');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('key: value\n');
    expect(stat).toMatchObject({ name: 'server.properties', size: 11, isFile: true });
    expect(wings.last('GET /api/servers/:server/files/list-directory').query.get('directory')).toBe('/');
    expect(await outcome(node.files.open(s, 'plugins'))).toBe('not_found');
  });
});

describe('writing', () => {
  it('writes a raw body with its Content-Length, streamed from a Readable too', async () => {
    await node.files.write(s, 'a/b.txt', Buffer.from('hello'), { maxBytes: 100 });
    let request = wings.last('POST /api/servers/:server/files/write');
    expect(request.query.get('file')).toBe('a/b.txt');
    expect(request.headers['content-length']).toBe('5');
    expect(request.body.toString()).toBe('hello');
    await node.files.write(s, 'c.txt', Readable.from([Buffer.from('one '), Buffer.from('two')]), { maxBytes: 100 });
    request = wings.last('POST /api/servers/:server/files/write');
    expect(request.headers['content-length']).toBe('7');
    expect(request.headers['transfer-encoding']).toBeUndefined();
    expect(request.body.toString()).toBe('one two');
  });

  it("takes Wings' full-disk answer (409 on its file routes, 400 from Aerie's node) as no_space", async () => {
    wings.answer('POST /api/servers/:server/files/write', wingsError(409, 'There is not enough disk space available to perform that action.'));
    expect(await outcome(node.files.write(s, 'big.bin', Buffer.alloc(10), { maxBytes: 100 }))).toBe('no_space');
    wings.answer('POST /api/servers/:server/files/write', wingsError(400, 'There is not enough disk space available to complete this action.'));
    expect(await outcome(node.files.write(s, 'big.bin', Buffer.alloc(10), { maxBytes: 100 }))).toBe('no_space');
  });

  it('sends nothing for a body past maxBytes or one that fails part-way', async () => {
    expect(await outcome(node.files.write(s, 'x', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { maxBytes: 1000 }))).toBe('too_large');
    expect(await outcome(node.files.write(s, 'x', Buffer.alloc(1001), { maxBytes: 1000 }))).toBe('too_large');
    const failing = new Readable({ read() {} });
    const written = node.files.write(s, 'x', failing, { maxBytes: 1000 });
    failing.push('partial');
    failing.destroy(new Error('connection reset'));
    expect(await outcome(written)).not.toBe('ok');
    expect(wings.requests.filter((r) => r.route === 'POST /api/servers/:server/files/write')).toHaveLength(0);
  });

  it('uploads every part under a hidden name, then puts them in place; a failure deletes the hidden parts and replaces nothing', async () => {
    // server.properties is in /up already (the double's listing): it is replaced only at the end.
    expect(
      await node.files.upload(
        s,
        '/up',
        uploads({ filename: 'a.txt', content: Buffer.from('A') }, { filename: '../../server.properties', content: Buffer.from('B') }),
        { maxBytes: 10 },
      ),
    ).toEqual(['a.txt', 'server.properties']);
    const writes = wings.requests.filter((r) => r.route === 'POST /api/servers/:server/files/write');
    expect(writes.map((r) => [r.query.get('file'), r.body.toString()])).toEqual([
      [expect.stringMatching(/^\/up\/\.uploading-[0-9a-f]{8}-0$/), 'A'],
      [expect.stringMatching(/^\/up\/\.uploading-[0-9a-f]{8}-1$/), 'B'],
    ]);
    const hidden = writes.map((r) => (r.query.get('file') ?? '').slice('/up/'.length));
    const order = wings.requests.map((r) => r.route).filter((route) => /files\/(write|delete|rename)$/.test(route));
    expect(order.slice(-2)).toEqual(['POST /api/servers/:server/files/delete', 'PUT /api/servers/:server/files/rename']);
    expect(json(wings.last('POST /api/servers/:server/files/delete').body)).toEqual({ root: '/up', files: ['server.properties'] });
    expect(json(wings.last('PUT /api/servers/:server/files/rename').body)).toEqual({
      root: '/up',
      files: [
        { from: hidden[0], to: 'a.txt' },
        { from: hidden[1], to: 'server.properties' },
      ],
    });

    let calls = 0;
    wings.answer('POST /api/servers/:server/files/write', (_request, res) => {
      calls += 1;
      if (calls === 1) return void res.writeHead(204).end();
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'Cannot write file, name conflicts with an existing directory by the same name.', request_id: randomUUID() }));
    });
    const before = wings.requests.length;
    const failed = node.files.upload(
      s,
      '/up',
      uploads({ filename: 'server.properties', content: Buffer.from('C') }, { filename: 'd', content: Buffer.from('D') }),
      { maxBytes: 10 },
    );
    expect(await outcome(failed)).toBe('bad_request');
    const after = wings.requests.slice(before);
    // Only the hidden part is deleted; server.properties is neither deleted nor renamed over.
    expect(after.filter((r) => r.route === 'PUT /api/servers/:server/files/rename')).toHaveLength(0);
    const deletes = after.filter((r) => r.route === 'POST /api/servers/:server/files/delete').map((r) => json(r.body));
    expect(deletes).toEqual([{ root: '/up', files: [expect.stringMatching(/^\.uploading-[0-9a-f]{8}-0$/)] }]);
  });

  it('copies, deletes, creates directories and renames with the bodies Wings reads', async () => {
    expect(await node.files.copy(s, '/server.properties')).toBe('server copy.properties');
    expect(json(wings.last('POST /api/servers/:server/files/copy').body)).toEqual({ location: '/server.properties' });
    // Wings does not say which existed: the root's listing does, for the activity log.
    expect(await node.files.delete(s, '/', ['server.properties', 'missing.log'])).toEqual(['server.properties']);
    expect(wings.last('GET /api/servers/:server/files/list-directory').query.get('directory')).toBe('/');
    expect(json(wings.last('POST /api/servers/:server/files/delete').body)).toEqual({ root: '/', files: ['server.properties', 'missing.log'] });
    await node.files.createDirectory(s, '/plugins', 'new');
    expect(json(wings.last('POST /api/servers/:server/files/create-directory').body)).toEqual({ name: 'new', path: '/plugins' });
    expect(
      await node.files.rename(s, '/', [
        { from: 'plugins', to: 'mods' },
        { from: 'a', to: 'b' },
      ]),
    ).toEqual([{ from: 'plugins', to: 'mods' }]);
    await node.files.rename(s, '/', [{ from: 'a', to: 'b' }]);
    const rename = wings.last('PUT /api/servers/:server/files/rename');
    expect(rename.headers['content-type']).toBe('application/json');
    expect(json(rename.body)).toEqual({ root: '/', files: [{ from: 'a', to: 'b' }] });
    wings.answer('PUT /api/servers/:server/files/rename', wingsError(400, 'Cannot move or rename file, destination already exists.'));
    expect(await node.files.rename(s, '/', [{ from: 'a', to: 'b' }]).catch((e: unknown) => e)).toMatchObject({
      kind: 'bad_request',
      message: 'Cannot move or rename file, destination already exists.',
    });
  });

  it('compresses into the archive Wings names, its 409 being disk space; decompresses', async () => {
    const archive = await node.files.compress(s, '/', ['world', 'server.properties'], new Date());
    expect(json(wings.last('POST /api/servers/:server/files/compress').body)).toEqual({ root: '/', files: ['world', 'server.properties'] });
    expect(archive).toMatchObject({ name: 'archive-2026-03-01T120000Z.tar.gz', size: 2048, mimetype: 'application/tar+gzip', isFile: true });
    wings.answer('POST /api/servers/:server/files/compress', wingsError(409, 'There is not enough disk space available to perform this action.'));
    expect(await outcome(node.files.compress(s, '/', ['world'], new Date()))).toBe('no_space');
    await node.files.decompress(s, '/backups', 'world.tar.gz');
    expect(json(wings.last('POST /api/servers/:server/files/decompress').body)).toEqual({ root: '/backups', file: 'world.tar.gz' });
    wings.answer('POST /api/servers/:server/files/decompress', wingsError(400, 'Unsupported archive format.'));
    expect(await outcome(node.files.decompress(s, '/', 'notes.txt'))).toBe('bad_request');
  });
});
