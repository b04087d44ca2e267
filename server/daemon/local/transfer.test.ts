import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import { Header } from 'tar';
import { describe, expect } from 'vitest';
import type { DaemonEvent } from '../capabilities';
import { tokenKey } from '../tokens';
import { test } from '../../test/fixtures';
import { eventually } from '../../test/game-support';
import { testConfiguration } from '../../test/daemon-contract';
import { ConfigurationStore } from '../../test/configuration-store';
import { TEMP_DIR } from './paths';
import { LocalDaemon } from '.';

/*
 * A transfer between two local nodes over real HTTP: the source streams the volume to the
 * target's `POST /api/transfers`, which takes it only with a valid token for the server, whole and
 * matching its checksum, and leaves nothing behind otherwise. The source keeps its files always.
 */

const SERVER = '0b5f1c2d-3e4a-4b6c-8d7e-9f0a1b2c3d4e';
const KEY = 'target-node-key-0123456789abcdef';

interface Fixture {
  source: LocalDaemon;
  target: LocalDaemon;
  url: string;
  sent: DaemonEvent[];
  completed: DaemonEvent[];
  targetVolumes: string;
}

const it = test.extend('f', async ({ tempDir }, { onCleanup }): Promise<Fixture> => {
  const store = new ConfigurationStore();
  const options = { configurationSource: store.source, log: () => undefined, bwrap: null, serverUser: null } as const;
  const source = new LocalDaemon(path.join(tempDir, 'source'), options);
  const target = new LocalDaemon(path.join(tempDir, 'target'), { ...options, key: async () => KEY });
  await store.apply(source, testConfiguration(SERVER));
  await source.servers.create(SERVER);
  const app = Fastify();
  await target.mount(app, { panelOrigin: () => 'http://panel.test' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  onCleanup(() => app.close());
  const sent: DaemonEvent[] = [];
  const completed: DaemonEvent[] = [];
  source.events.subscribe((event) => void sent.push(event));
  target.events.subscribe((event) => void completed.push(event));
  return { source, target, url: `${address}/api/transfers`, sent, completed, targetVolumes: path.join(tempDir, 'target', 'volumes') };
});

const sign = (claims: Record<string, unknown>, options: { key?: string; exp?: string | number } = {}) =>
  new SignJWT({ scope: 'transfer', sub: SERVER, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setNotBefore('-5m')
    .setExpirationTime(options.exp ?? '15m')
    .sign(tokenKey(options.key ?? KEY));

/** Every entry below `root`: type, content or link target, sorted by path. */
function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const at = path.join(dir, name);
      const st = fs.lstatSync(at);
      const key = rel ? `${rel}/${name}` : name;
      if (st.isSymbolicLink()) out.push(`${key} -> ${fs.readlinkSync(at)}`);
      else if (st.isDirectory()) {
        out.push(`${key}/`);
        walk(at, key);
      } else out.push(`${key}: ${createHash('sha256').update(fs.readFileSync(at)).digest('hex')} ${(st.mode & 0o777).toString(8)}`);
    }
  };
  walk(root, '');
  return out;
}

function plant(volume: string): void {
  fs.mkdirSync(path.join(volume, 'world/region'), { recursive: true });
  fs.mkdirSync(path.join(volume, 'empty'));
  fs.writeFileSync(path.join(volume, 'server.properties'), 'motd=hello\n');
  fs.writeFileSync(path.join(volume, 'world/region/r.0.0.mca'), Buffer.alloc(3 * 1024 * 1024, 7));
  fs.writeFileSync(path.join(volume, 'start.sh'), '#!/bin/sh\n', { mode: 0o755 });
  fs.symlinkSync('world/region', path.join(volume, 'regions'));
  fs.symlinkSync('../server.properties', path.join(volume, 'world/props'));
}

/** What the target holds of the server beside its volumes: nothing after a refusal. */
const leftovers = (f: Fixture): string[] =>
  fs.existsSync(f.targetVolumes) ? fs.readdirSync(f.targetVolumes).filter((name) => name.includes(SERVER)) : [];

/** What the receive area holds (a transfer's spooled archive). */
const spooled = (f: Fixture): string[] => {
  const area = path.join(f.targetVolumes, TEMP_DIR);
  return fs.existsSync(area) ? fs.readdirSync(area) : [];
};

const lastOf = (events: DaemonEvent[], type: DaemonEvent['type']) => events.filter((event) => event.type === type).at(-1);

/** A gzip'd tar of hand-made members (`linkpath` for links). */
function archiveOf(members: { path: string; type: 'File' | 'Directory' | 'SymbolicLink' | 'Link'; body?: string; linkpath?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const body = Buffer.from(member.body ?? '');
    const header = new Header({ path: member.path, type: member.type, size: body.length, mode: 0o644, mtime: new Date(), linkpath: member.linkpath });
    header.encode();
    if (!header.block) throw new Error('no header');
    blocks.push(header.block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

/** Posts a transfer by hand; `checksum` defaults to the archive's own. */
async function post(f: Fixture, archive: Buffer, options: { token?: string; checksum?: string } = {}): Promise<number> {
  const boundary = 'xBOUNDARYx';
  const checksum = options.checksum ?? createHash('sha256').update(archive).digest('hex');
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="a.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`),
    archive,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="checksum"\r\n\r\n${checksum}\r\n--${boundary}--\r\n`),
  ]);
  const response = await fetch(f.url, {
    method: 'POST',
    headers: { Authorization: options.token ?? `Bearer ${await sign({})}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe('server transfers between nodes', () => {
  it('moves the volume with its files, links and empty folders, and the source keeps its own', async ({ f }) => {
    const volume = f.source.volumePath(SERVER);
    plant(volume);
    const before = tree(volume);
    await f.source.transfers.send(SERVER, { url: f.url, token: `Bearer ${await sign({})}` });
    await eventually(() => lastOf(f.sent, 'transfer.sent') !== undefined);
    expect(lastOf(f.sent, 'transfer.sent')).toEqual({ type: 'transfer.sent', server: SERVER, successful: true, reason: '' });
    expect(lastOf(f.completed, 'transfer.completed')).toEqual({ type: 'transfer.completed', server: SERVER, successful: true });
    expect(tree(f.target.volumePath(SERVER))).toEqual(before);
    expect(tree(volume)).toEqual(before);
    expect(leftovers(f)).toEqual([SERVER]);
    // The lock is let go: the source's files can be written again.
    await f.source.files.write(SERVER, 'after.txt', Buffer.from('x'), { maxBytes: 10 });
  });

  it('refuses a second transfer of a server the source is sending', async ({ f }) => {
    plant(f.source.volumePath(SERVER));
    await f.source.transfers.send(SERVER, { url: f.url, token: `Bearer ${await sign({})}` });
    await expect(f.source.transfers.send(SERVER, { url: f.url, token: 'Bearer x' })).rejects.toMatchObject({ kind: 'conflict' });
    await expect(f.source.files.write(SERVER, 'x.txt', Buffer.from('x'), { maxBytes: 10 })).rejects.toMatchObject({ kind: 'conflict' });
    await eventually(() => lastOf(f.sent, 'transfer.sent') !== undefined);
  });

  it.for([
    ['a token signed with another key', () => sign({}, { key: 'another-node-key-0123456789abcdef' }), 401],
    ['an expired token', () => sign({}, { exp: Math.floor(Date.now() / 1000) - 60 }), 401],
    ['a token for another purpose', () => sign({ scope: 'websocket file-download' }), 403],
    ['a token for another server', () => sign({ sub: 'ffffffff-1b7d-4a5e-9c0f-2d8e4b6a7c91' }), 401],
  ] as const)('refuses %s and writes nothing', async ([, token, status], { f }) => {
    const volume = f.source.volumePath(SERVER);
    plant(volume);
    const before = tree(volume);
    const jwt = await token();
    // Signed for another server: the target would take it for that server, never for this one.
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as { sub?: string };
    const expected = claims.sub === SERVER ? status : 404;
    await f.source.transfers.send(SERVER, { url: f.url, token: `Bearer ${jwt}` });
    await eventually(() => lastOf(f.sent, 'transfer.sent') !== undefined);
    expect(lastOf(f.sent, 'transfer.sent')).toMatchObject({ successful: false, reason: expect.stringContaining(`answered ${expected}`) as unknown });
    expect(leftovers(f)).toEqual([]);
    expect(tree(volume)).toEqual(before);
  });

  it('refuses an archive that does not match its checksum and leaves nothing', async ({ f }) => {
    const archive = archiveOf([{ path: 'a.txt', type: 'File', body: 'hello' }]);
    expect(await post(f, archive, { checksum: 'ab'.repeat(32) })).toBe(400);
    expect(leftovers(f)).toEqual([]);
    expect(lastOf(f.completed, 'transfer.completed')).toEqual({ type: 'transfer.completed', server: SERVER, successful: false });
    expect(await post(f, archive)).toBe(200);
    expect(fs.readFileSync(path.join(f.target.volumePath(SERVER), 'a.txt'), 'utf8')).toBe('hello');
  });

  it.for([
    ['a member above the volume', [{ path: '../evil.txt', type: 'File', body: 'x' }]],
    ['an absolute member', [{ path: '/tmp/evil.txt', type: 'File', body: 'x' }]],
    ['a link out of the volume', [{ path: 'out', type: 'SymbolicLink', linkpath: '../../../etc' }]],
    ['an absolute link', [{ path: 'etc', type: 'SymbolicLink', linkpath: '/etc' }]],
    [
      'a link out through a link to the root',
      [
        { path: 'here', type: 'SymbolicLink', linkpath: '.' },
        { path: 'up', type: 'SymbolicLink', linkpath: 'here/..' },
      ],
    ],
    [
      'a file written through a link',
      [
        { path: 'd', type: 'SymbolicLink', linkpath: 'sub' },
        { path: 'sub/', type: 'Directory' },
        { path: 'd/x', type: 'File', body: 'x' },
      ],
    ],
    [
      'a hard link',
      [
        { path: 'a', type: 'File', body: 'x' },
        { path: 'h', type: 'Link', linkpath: 'a' },
      ],
    ],
  ] as const)('refuses %s and leaves nothing', async ([, members], { f }) => {
    expect(await post(f, archiveOf([...members]))).toBe(400);
    expect(leftovers(f)).toEqual([]);
    expect(fs.existsSync(path.join(f.targetVolumes, 'evil.txt'))).toBe(false);
  });

  it('leaves nothing when the source goes away mid-stream, and refuses a second transfer meanwhile', async ({ f }) => {
    const archive = archiveOf([{ path: 'big.bin', type: 'File', body: 'y'.repeat(2 * 1024 * 1024) }]);
    const request = http.request(f.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await sign({})}`, 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    request.on('error', () => undefined);
    request.write(`--b\r\nContent-Disposition: form-data; name="archive"; filename="a.tar.gz"\r\n\r\n`);
    request.write(archive.subarray(0, 1000));
    await eventually(() => spooled(f).length > 0);
    expect(await post(f, archive)).toBe(409);
    request.destroy();
    await eventually(() => lastOf(f.completed, 'transfer.completed') !== undefined);
    expect(lastOf(f.completed, 'transfer.completed')).toMatchObject({ successful: false });
    expect(leftovers(f)).toEqual([]);
    await eventually(() => spooled(f).length === 0);
  });
});
