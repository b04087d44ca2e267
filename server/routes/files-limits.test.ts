import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, vi } from 'vitest';
import type { FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * What one request may make the daemon read or hold: a compress refuses a selection that names a
 * file twice or reads more than its caps, and stops when its client hangs up; a listing refuses a
 * folder past its entry cap. None of them leaves an archive or a temporary file behind.
 */

type Reply = Awaited<ReturnType<FileFixture['call']>>;

function expectBadRequest(res: Reply, detail: string | RegExp): void {
  expect(res.statusCode, res.body).toBe(400);
  const error = res.json().errors[0];
  expect(error).toMatchObject({ code: 'BadRequestHttpException', status: '400' });
  expect(error.detail).toMatch(detail);
}

/** Names in a folder of S1 that are archives or temporary files. */
function leftovers(f: FileFixture, dir = f.v1): string[] {
  return fs.readdirSync(dir).filter((n) => n.startsWith('archive-') || n.startsWith('.aerie-'));
}

const compress = (f: FileFixture, root: string, files: string[]) => f.call('POST', 'compress', { body: { root, files } });

describe('compress', () => {
  it('refuses a file named twice, or a file inside a folder it also names, with no archive', async ({ files: f }) => {
    f.put('world/level.dat', 'level');
    f.put('world/region/r.0.0.mca', 'region');
    f.put('server.properties', 'motd=x');
    expectBadRequest(await compress(f, '/', ['server.properties', 'server.properties']), '/server.properties is named twice.');
    expectBadRequest(await compress(f, '/', ['./world', 'world/']), '/world is named twice.');
    expectBadRequest(
      await compress(f, '/', ['world/region/r.0.0.mca', 'world']),
      '/world/region/r.0.0.mca is inside /world, which is compressed already.',
    );
    expectBadRequest(await compress(f, '/world', ['region', 'region/r.0.0.mca']), '/world/region/r.0.0.mca is inside /world/region');
    expect(leftovers(f)).toEqual([]);
    expect(leftovers(f, `${f.v1}/world`)).toEqual([]);
    const ok = await compress(f, '/', ['world', 'server.properties']);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a selection past its caps on entries and bytes read, leaving no archive', async ({ files: f }) => {
    f.panel.daemon.files.compressLimits = { maxBytes: 10_000, maxEntries: 20 };
    for (let i = 0; i < 25; i += 1) f.put(`logs/f${i}.log`, 'x');
    f.put('big/a.bin', Buffer.alloc(6_000, 1));
    f.put('big/b.bin', Buffer.alloc(6_000, 2));
    expectBadRequest(await compress(f, '/', ['logs']), 'The archive was not created: the selection holds more than 20 files and folders.');
    expectBadRequest(await compress(f, '/', ['big']), 'The archive was not created: the selection holds more than 10,000 bytes.');
    expect(leftovers(f)).toEqual([]);
    // Within both caps it works, and the server's lock was freed.
    const ok = await compress(f, '/big', ['a.bin']);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('stops when its client hangs up: no archive, no temporary file, the server free for the next write', async ({ files: f }) => {
    // Random content: gzip takes seconds over it, far longer than noticing the hang-up.
    f.put('world/region.bin', randomBytes(48 * 1024 * 1024));
    const created: string[] = [];
    const watcher = fs.watch(f.v1, (_event, name) => {
      if (name?.startsWith('.aerie-')) created.push(name);
    });
    try {
      const port = await listen(f.panel.app);
      const body = JSON.stringify({ root: '/', files: ['world'] });
      const socket = await send(
        port,
        rawRequest('POST', `/api/client/servers/${f.s1.uuid}/files/compress`, { ...f.ownerHeaders, 'content-type': 'application/json' }, body),
      );
      // Hang up once the archive is being written.
      await vi.waitFor(() => expect(created.length).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
      socket.destroy();
      await vi.waitFor(() => expect(fs.readdirSync(f.v1).filter((n) => n.startsWith('.aerie-'))).toEqual([]), { timeout: 10_000, interval: 20 });
      expect(leftovers(f)).toEqual([]);
      const write = await f.call('POST', 'write', { query: { file: 'after.txt' }, raw: 'x' });
      expect(write.statusCode, write.body).toBe(204);
      expect(leftovers(f)).toEqual([]);
      expect(await f.events()).toEqual([{ event: 'server:file.write', properties: { file: 'after.txt' } }]);
    } finally {
      watcher.close();
    }
  });
});

describe('list', () => {
  it('refuses a folder past its entry cap with a clear error, and lists one at the cap', async ({ files: f }) => {
    f.panel.daemon.files.maxListEntries = 30;
    for (let i = 0; i < 31; i += 1) f.put(`huge/f${i}.txt`);
    for (let i = 0; i < 30; i += 1) f.put(`full/f${i}.txt`);
    expectBadRequest(
      await f.call('GET', 'list', { query: { directory: '/huge' } }),
      'This folder has more than 30 entries; it is too large to list here.',
    );
    const res = await f.call('GET', 'list', { query: { directory: '/full' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(30);
  });
});

/** Opens a connection and sends `request`; the caller hangs up. */
function send(port: number, request: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request, () => resolve(socket)));
    socket.on('error', reject);
  });
}

function rawRequest(method: string, url: string, headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ host: 'localhost', ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${url} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the panel is not listening on a TCP port');
  return address.port;
}
