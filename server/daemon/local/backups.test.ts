import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import * as tar from 'tar';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import type { DaemonEvent } from '../capabilities';
import { tokenKey } from '../tokens';
import { test } from '../../test/fixtures';
import { eventually } from '../../test/game-support';
import { testConfiguration } from '../../test/daemon-contract';
import { outcome, refusal } from '../../test/daemon-contract/support';
import { ConfigurationStore } from '../../test/configuration-store';
import { LocalDaemon } from '.';

const store = new ConfigurationStore();

/*
 * Backups on the local node with real files and real archives: what goes in (ignored files,
 * links), restores with and without truncate, the lock during a restore, the quota, delete and
 * open, the signed download, the console socket's frames, and a process killed mid-backup.
 */

const SERVER = '6f2c3a1e-1b7d-4a5e-9c0f-2d8e4b6a7c91';
const KEY = 'backup-test-key-0123456789abcdef';
const ORIGIN = 'http://panel.test';

interface Fixture {
  daemon: LocalDaemon;
  dataDir: string;
  events: DaemonEvent[];
  /** What the console was told (daemon messages, backup frames), as the socket would frame it. */
  said: { type: string; line?: string; backup?: string; progress?: number }[];
  volume: string;
}

const it = test.extend('f', async ({ tempDir }): Promise<Fixture> => {
  // The daemon's clock runs a little behind, so tokens signed now are not "issued before it started".
  const daemon = new LocalDaemon(tempDir, {
    configurationSource: store.source,
    log: () => undefined,
    key: async () => KEY,
    now: () => new Date(Date.now() - 5_000),
  });
  await store.apply(daemon, testConfiguration(SERVER));
  await daemon.servers.create(SERVER);
  const events: DaemonEvent[] = [];
  daemon.events.subscribe((event) => void events.push(event));
  const said: Fixture['said'] = [];
  daemon.process.subscribe(SERVER, (event) => {
    if (event.type === 'daemon message') said.push({ type: event.type, line: event.line });
    else if (event.type === 'backup completed') said.push({ type: event.type, backup: event.backup });
    else if (event.type === 'backup restore completed') said.push({ type: event.type });
    else if (event.type === 'backup progress') said.push({ type: event.type, backup: event.backup, progress: event.progress });
  });
  return { daemon, dataDir: tempDir, events, said, volume: daemon.volumePath(SERVER) };
});

function plant(volume: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(volume, name)), { recursive: true });
    fs.writeFileSync(path.join(volume, name), content);
  }
}

const archivePath = (f: Fixture, backup: string, server = SERVER) => path.join(f.dataDir, 'backups', server, `${backup}.tar.gz`);

async function completed(f: Fixture, type: 'backup.completed' | 'restore.completed', backup: string) {
  let found: DaemonEvent | undefined;
  await eventually(() => (found = f.events.find((e) => e.type === type && e.backup === backup)) !== undefined, 20_000);
  return found as Extract<DaemonEvent, { type: typeof type }>;
}

async function backUp(f: Fixture, ignore: string[] = []) {
  const backup = randomUUID();
  await f.daemon.backups.create(SERVER, backup, ignore);
  const event = (await completed(f, 'backup.completed', backup)) as Extract<DaemonEvent, { type: 'backup.completed' }>;
  return { backup, event };
}

/** Every member of an archive: path → content (directories end with `/` and have none). */
async function members(file: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await tar.t({
    file,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => out.set(entry.path, Buffer.concat(chunks).toString('utf8')));
    },
  });
  return out;
}

const sha1 = (file: string) => createHash('sha1').update(fs.readFileSync(file)).digest('hex');

describe('backups on the local node', () => {
  it('writes the volume minus the ignored files, with the announced checksum and size', async ({ f }) => {
    plant(f.volume, {
      'server.properties': 'motd=hi',
      'logs/latest.log': 'log',
      'keep.log': 'kept',
      'cache/blob': 'cached',
      'world/level.dat': 'level',
    });
    const { backup, event } = await backUp(f, ['*.log', 'cache/', '!keep.log']);
    const file = archivePath(f, backup);
    expect(event).toMatchObject({ successful: true, checksum: `sha1:${sha1(file)}`, bytes: fs.statSync(file).size });
    const inside = await members(file);
    expect([...inside.keys()].sort()).toEqual(['keep.log', 'logs/', 'server.properties', 'world/', 'world/level.dat']);
    expect(inside.get('world/level.dat')).toBe('level');
    // Nothing is left beside it, and it is outside the volume.
    expect(fs.readdirSync(path.dirname(file))).toEqual([`${backup}.tar.gz`]);
    expect(fs.readdirSync(f.volume).some((n) => n.endsWith('.tar.gz'))).toBe(false);
    expect(f.said).toContainEqual({ type: 'backup completed', backup });
  });

  it('tells the consoles how far a backup is, at most once a second, below 1 until it completes', async ({ f }) => {
    plant(f.volume, { 'world/region.bin': randomBytes(4 * 1024 * 1024), 'small.txt': 'x' });
    const { backup } = await backUp(f);
    const told = f.said.filter((s) => s.type === 'backup progress');
    expect(told.length).toBeGreaterThanOrEqual(1);
    for (const s of told) {
      expect(s.backup).toBe(backup);
      expect(s.progress).toBeGreaterThan(0);
      expect(s.progress).toBeLessThanOrEqual(0.99);
    }
    // Progress first, then the end.
    expect(f.said.findIndex((s) => s.type === 'backup progress')).toBeLessThan(f.said.findIndex((s) => s.type === 'backup completed'));
  });

  it('reports a failed backup with no checksum and no size, and leaves no file', async ({ f }) => {
    // Deeper than any walk of the daemon goes: the backup fails midway.
    plant(f.volume, { 'a.txt': 'a', [`${'d/'.repeat(520)}deep.txt`]: 'deep' });
    const { backup, event } = await backUp(f);
    expect(event).toMatchObject({ successful: false, checksum: '', bytes: 0 });
    expect(fs.readdirSync(path.join(f.dataDir, 'backups', SERVER))).toEqual([]);
    expect(await outcome(f.daemon.backups.open(SERVER, backup))).toBe('not_found');
  });

  it('refuses a volume whose files hold more bytes than the disk limit (a sparse file counts in full), and says why', async ({ f }) => {
    await store.apply(f.daemon, testConfiguration(SERVER, { diskMiB: 1 }));
    plant(f.volume, { 'a.txt': 'a' });
    fs.truncateSync(path.join(f.volume, 'a.txt'), 2 * 1024 * 1024);
    const { event } = await backUp(f);
    expect(event).toMatchObject({ successful: false, checksum: '', bytes: 0 });
    expect(fs.readdirSync(path.join(f.dataDir, 'backups', SERVER))).toEqual([]);
    expect(f.said.find((e) => e.line?.startsWith('Backup failed:'))?.line).toBe(
      'Backup failed: the server holds more than 1,048,576 bytes, past its limits, so the backup could not be restored.',
    );
  });

  it('refuses a volume holding more files and folders than the server may hold', async ({ f }) => {
    f.daemon.files.maxEntries = 3;
    plant(f.volume, { 'a.txt': 'a', 'b.txt': 'b', 'dir/c.txt': 'c' });
    expect((await backUp(f)).event.successful).toBe(false);
    expect(f.said.find((e) => e.line?.startsWith('Backup failed:'))?.line).toBe(
      'Backup failed: the server holds more than 3 files and folders, past its limits, so the backup could not be restored.',
    );
    fs.rmSync(path.join(f.volume, 'dir'), { recursive: true });
    expect((await backUp(f)).event.successful).toBe(true);
  });

  it("reads .pteroignore when the panel sends no ignored files (Wings' fallback)", async ({ f }) => {
    plant(f.volume, { '.pteroignore': '# comment\nsecret.txt\n', 'secret.txt': 's', 'a.txt': 'a' });
    const { backup } = await backUp(f);
    expect([...(await members(archivePath(f, backup))).keys()].sort()).toEqual(['.pteroignore', 'a.txt']);
  });

  it('never follows a link planted in the volume out of it', async ({ f, tempDir }) => {
    const outside = path.join(tempDir, 'outside-secret.txt');
    fs.writeFileSync(outside, 'TOP-SECRET-OUTSIDE');
    fs.mkdirSync(path.join(tempDir, 'outside-dir'));
    fs.writeFileSync(path.join(tempDir, 'outside-dir', 'inner.txt'), 'TOP-SECRET-OUTSIDE');
    plant(f.volume, { 'plain.txt': 'plain' });
    fs.symlinkSync(outside, path.join(f.volume, 'link.txt'));
    fs.symlinkSync(path.join(tempDir, 'outside-dir'), path.join(f.volume, 'linkdir'));
    const { backup, event } = await backUp(f);
    expect(event.successful).toBe(true);
    const inside = await members(archivePath(f, backup));
    expect([...inside.keys()]).toEqual(['plain.txt']);
    expect([...inside.values()].join('')).not.toContain('TOP-SECRET');
  });

  it('restores without truncate: deleted files come back, overwritten ones are reset, newer ones stay', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a', 'dir/b.txt': 'b', 'c.txt': 'old' });
    const { backup } = await backUp(f);
    fs.rmSync(path.join(f.volume, 'dir'), { recursive: true });
    plant(f.volume, { 'c.txt': 'changed', 'new.txt': 'newer' });
    await f.daemon.backups.restore(SERVER, backup, { truncate: false });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readFileSync(path.join(f.volume, 'dir/b.txt'), 'utf8')).toBe('b');
    expect(fs.readFileSync(path.join(f.volume, 'c.txt'), 'utf8')).toBe('old');
    expect(fs.readFileSync(path.join(f.volume, 'new.txt'), 'utf8')).toBe('newer');
    // What it replaced was moved aside, then removed once the restore ended: nothing of it stays.
    await eventually(async () => fs.readdirSync(f.volume).every((name) => !name.startsWith('.aerie-')), 5_000);
    expect(fs.readdirSync(f.volume).sort()).toEqual(['a.txt', 'c.txt', 'dir', 'new.txt']);
    expect(f.said.map((e) => e.line ?? e.type)).toEqual(
      expect.arrayContaining([expect.stringContaining(`Restoring backup ${backup}`), 'Backup restored.', 'backup restore completed']),
    );
  });

  it('restores with truncate: files not in the backup are gone', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a', 'dir/b.txt': 'b' });
    const { backup } = await backUp(f);
    plant(f.volume, { 'new.txt': 'newer', 'newdir/x': 'x' });
    await f.daemon.backups.restore(SERVER, backup, { truncate: true });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readdirSync(f.volume).sort()).toEqual(['a.txt', 'dir']);
    expect(fs.readFileSync(path.join(f.volume, 'dir/b.txt'), 'utf8')).toBe('b');
  });

  it('restores with truncate over names that are not valid UTF-8, at the top and deeper: they are gone too', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a' });
    const { backup } = await backUp(f);
    const bad = (dir: string) => Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff])]);
    fs.writeFileSync(bad(f.volume), 'x');
    plant(f.volume, { 'newdir/x': 'x' });
    fs.writeFileSync(bad(path.join(f.volume, 'newdir')), 'x');
    await f.daemon.backups.restore(SERVER, backup, { truncate: true });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readdirSync(f.volume, { encoding: 'buffer' }).map(String)).toEqual(['a.txt']);
  });

  it('restores the backup of an empty volume (an archive with no entries), with and without truncate', async ({ f }) => {
    const { backup, event } = await backUp(f);
    expect(event.successful).toBe(true);
    expect(await members(archivePath(f, backup))).toEqual(new Map());
    plant(f.volume, { 'later.txt': 'later' });
    await f.daemon.backups.restore(SERVER, backup, { truncate: false });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readdirSync(f.volume)).toEqual(['later.txt']);
    f.events.length = 0;
    await f.daemon.backups.restore(SERVER, backup, { truncate: true });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readdirSync(f.volume)).toEqual([]);
    expect(f.said.some((e) => e.line?.startsWith('Restore failed'))).toBe(false);
  });

  it('restores every name a Linux volume may hold: backslashes, control characters, a drive-like prefix', async ({ f }) => {
    const names = ['back\\slash.txt', 'line\nbreak.txt', 'C:drive.txt', 'tab\tdir\\/bell\x07.txt', 'plain.txt'];
    plant(f.volume, Object.fromEntries(names.map((n) => [n, `content of ${n}`])));
    const { backup, event } = await backUp(f);
    expect(event.successful).toBe(true);
    fs.rmSync(f.volume, { recursive: true });
    fs.mkdirSync(f.volume);
    await f.daemon.backups.restore(SERVER, backup, { truncate: true });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    for (const n of names) expect(fs.readFileSync(path.join(f.volume, n), 'utf8')).toBe(`content of ${n}`);
  });

  it('fails, saying why, a backup of a name that is not valid UTF-8, rather than leaving the file out', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a', 'dir/b.txt': 'b' });
    fs.writeFileSync(Buffer.concat([Buffer.from(`${f.volume}/dir/bad`), Buffer.from([0xff]), Buffer.from('.txt')]), 'x');
    const { event } = await backUp(f);
    expect(event).toMatchObject({ successful: false, checksum: '', bytes: 0 });
    expect(fs.readdirSync(path.join(f.dataDir, 'backups', SERVER))).toEqual([]);
    expect(f.said.find((e) => e.line?.startsWith('Backup failed:'))?.line).toBe(
      'Backup failed: The archive was not created: the name of "dir/bad\ufffd.txt" is not valid UTF-8 (rename it first).',
    );
  });

  it('refuses file writes and power actions while a restore runs, and admits them after', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a' });
    const { backup } = await backUp(f);
    await f.daemon.backups.restore(SERVER, backup, { truncate: false });
    expect(await outcome(f.daemon.files.write(SERVER, 'b.txt', Buffer.from('b'), { maxBytes: 1024 }))).toBe('conflict');
    expect(await outcome(f.daemon.process.power(SERVER, 'start'))).toBe('conflict');
    expect(await outcome(f.daemon.backups.restore(SERVER, backup, { truncate: false }))).toBe('conflict');
    expect(await outcome(f.daemon.backups.delete(SERVER, backup))).toBe('conflict');
    await completed(f, 'restore.completed', backup);
    expect(await outcome(f.daemon.files.write(SERVER, 'b.txt', Buffer.from('b'), { maxBytes: 1024 }))).toBe('ok');
  });

  it('fails a restore that would pass the disk limit, says so, and reports it failed', async ({ f }) => {
    plant(f.volume, { 'big.bin': randomBytes(3 * 1024 * 1024) });
    const { backup } = await backUp(f);
    // The backup itself lives outside the volume: it costs the server nothing.
    await store.apply(f.daemon, testConfiguration(SERVER, { diskMiB: 2 }));
    fs.rmSync(path.join(f.volume, 'big.bin'));
    await f.daemon.backups.restore(SERVER, backup, { truncate: false });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(false);
    expect(f.said.find((e) => e.line?.startsWith('Restore failed:'))?.line).toMatch(/space|disk/i);
    expect(fs.readdirSync(f.volume)).toEqual([]);
  });

  it('leaves the volume as it was when a truncating restore fails', async ({ f }) => {
    plant(f.volume, { 'big.bin': randomBytes(3 * 1024 * 1024) });
    const { backup } = await backUp(f);
    await store.apply(f.daemon, testConfiguration(SERVER, { diskMiB: 2 }));
    fs.rmSync(path.join(f.volume, 'big.bin'));
    plant(f.volume, { 'since.txt': 'written since', 'dir/kept.txt': 'kept' });
    await f.daemon.backups.restore(SERVER, backup, { truncate: true });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(false);
    expect(fs.readdirSync(f.volume).sort()).toEqual(['dir', 'since.txt']);
    expect(fs.readFileSync(path.join(f.volume, 'dir/kept.txt'), 'utf8')).toBe('kept');
  });

  it('restores with truncate a backup that fits the limit alone, on a volume that is full or past its limit', async ({ f }) => {
    await store.apply(f.daemon, testConfiguration(SERVER, { diskMiB: 5 }));
    const saved = randomBytes(3 * 1024 * 1024);
    plant(f.volume, { 'saved.bin': saved });
    const { backup } = await backUp(f);
    for (const extra of [4, 6]) {
      plant(f.volume, { 'saved.bin': 'gone', 'other.bin': randomBytes(extra * 1024 * 1024) });
      f.events.length = 0;
      await f.daemon.backups.restore(SERVER, backup, { truncate: true });
      expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
      expect(fs.readdirSync(f.volume)).toEqual(['saved.bin']);
      expect(fs.readFileSync(path.join(f.volume, 'saved.bin')).equals(saved)).toBe(true);
    }
    // The usage the node keeps afterwards is the restored volume's: a write up to the limit fits.
    expect(await outcome(f.daemon.files.write(SERVER, 'more.bin', Buffer.alloc(1024 * 1024), { maxBytes: 2 * 1024 * 1024 }))).toBe('ok');
  });

  it('restores over the files it saved on a server using most of its disk limit', async ({ f }) => {
    await store.apply(f.daemon, testConfiguration(SERVER, { diskMiB: 5 }));
    const saved = randomBytes(3 * 1024 * 1024);
    plant(f.volume, { 'big.bin': saved, 'small.txt': 's' });
    const { backup } = await backUp(f);
    plant(f.volume, { 'big.bin': randomBytes(3 * 1024 * 1024) });
    await f.daemon.backups.restore(SERVER, backup, { truncate: false });
    expect((await completed(f, 'restore.completed', backup)).successful).toBe(true);
    expect(fs.readFileSync(path.join(f.volume, 'big.bin')).equals(saved)).toBe(true);
  });

  it('deletes and opens archives; missing ones are not_found, one being written is conflict', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a' });
    const { backup } = await backUp(f);
    const opened = await f.daemon.backups.open(SERVER, backup);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(fs.readFileSync(archivePath(f, backup)))).toBe(true);
    expect(opened.size).toBe(fs.statSync(archivePath(f, backup)).size);

    const running = randomUUID();
    await f.daemon.backups.create(SERVER, running, []);
    expect((await refusal(f.daemon.backups.delete(SERVER, running))).kind).toBe('conflict');
    expect(await outcome(f.daemon.backups.create(SERVER, running, []))).toBe('conflict');
    // Whoever hears the end may act on the backup at once.
    const deleted = new Promise((resolve) =>
      f.daemon.events.subscribe((e) => void (e.type === 'backup.completed' && resolve(outcome(f.daemon.backups.delete(SERVER, running))))),
    );
    expect(await deleted).toBe('ok');

    await f.daemon.backups.delete(SERVER, backup);
    expect(fs.existsSync(archivePath(f, backup))).toBe(false);
    expect(await outcome(f.daemon.backups.delete(SERVER, backup))).toBe('not_found');
    expect(await outcome(f.daemon.backups.open(SERVER, backup))).toBe('not_found');
    expect(await outcome(f.daemon.backups.restore(SERVER, backup, { truncate: true }))).toBe('not_found');
    expect(await outcome(f.daemon.backups.open(SERVER, '../../etc'))).toBe('not_found');
  });

  it('removes the backups with the server', async ({ f }) => {
    const { backup } = await backUp(f);
    expect(fs.existsSync(archivePath(f, backup))).toBe(true);
    await f.daemon.servers.delete(SERVER);
    expect(fs.existsSync(path.join(f.dataDir, 'backups', SERVER))).toBe(false);
  });

  it('serves /download/backup once, with the exact bytes, and refuses reuse and other servers', async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a' });
    const { backup } = await backUp(f);
    const app = Fastify();
    await f.daemon.mount(app, { panelOrigin: () => ORIGIN });
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ scope: 'backup-download', unique_id: randomUUID(), jti: 'user-on-server', ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(tokenKey(KEY));
    try {
      const token = await sign({ server_uuid: SERVER, backup_uuid: backup });
      const first = await app.inject({ url: `/download/backup?token=${token}` });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/gzip');
      expect(first.headers['content-disposition']).toBe(`attachment; filename="${backup}.tar.gz"`);
      expect(first.rawPayload.equals(fs.readFileSync(archivePath(f, backup)))).toBe(true);
      expect((await app.inject({ url: `/download/backup?token=${token}` })).statusCode).toBe(403);

      const other = await sign({ server_uuid: randomUUID(), backup_uuid: backup });
      expect((await app.inject({ url: `/download/backup?token=${other}` })).statusCode).toBe(404);
      const fileToken = await sign({ scope: 'file-download', server_uuid: SERVER, backup_uuid: backup, file_path: 'a.txt' });
      expect((await app.inject({ url: `/download/backup?token=${fileToken}` })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it("sends Wings' backup frames to consoles that may read backups", async ({ f }) => {
    plant(f.volume, { 'a.txt': 'a' });
    const app = Fastify();
    await f.daemon.mount(app, { panelOrigin: () => ORIGIN });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const open = async (permissions: string[]) => {
      const ws = new WebSocket(`${address.replace('http', 'ws')}/api/servers/${SERVER}/ws`, { headers: { origin: ORIGIN } });
      const frames: { event: string; args?: string[] }[] = [];
      ws.on('message', (data) => frames.push(JSON.parse(String(data)) as { event: string; args?: string[] }));
      await new Promise((resolve) => ws.once('open', resolve));
      const token = await new SignJWT({ scope: 'websocket', server_uuid: SERVER, unique_id: randomUUID(), user_uuid: randomUUID(), permissions })
        .setProtectedHeader({ alg: 'HS256' })
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(tokenKey(KEY));
      ws.send(JSON.stringify({ event: 'auth', args: [token] }));
      await eventually(() => frames.some((fr) => fr.event === 'auth success'));
      return { ws, frames };
    };
    try {
      const reader = await open(['websocket.connect', 'backup.read']);
      const outsider = await open(['websocket.connect', 'control.console']);
      const { backup, event } = await backUp(f);
      await eventually(() => reader.frames.some((fr) => fr.event === `backup completed:${backup}`));
      const frame = reader.frames.find((fr) => fr.event === `backup completed:${backup}`);
      expect(JSON.parse(frame?.args?.[0] ?? '')).toEqual({
        uuid: backup,
        is_successful: true,
        checksum: event.checksum.replace('sha1:', ''),
        checksum_type: 'sha1',
        file_size: event.bytes,
      });
      await f.daemon.backups.restore(SERVER, backup, { truncate: false });
      await eventually(() => reader.frames.some((fr) => fr.event === 'backup restore completed'));
      await eventually(() => outsider.frames.some((fr) => fr.event === 'daemon message' && fr.args?.[0] === 'Backup restored.'));
      expect(outsider.frames.map((fr) => fr.event).filter((e) => e.startsWith('backup'))).toEqual([]);
      reader.ws.close();
      outsider.ws.close();
    } finally {
      await app.close();
    }
  });

  it('leaves neither a partial nor a final archive when the process is killed mid-backup', async ({ tempDir }) => {
    const setup = new LocalDaemon(tempDir, { configurationSource: store.source, log: () => undefined });
    await store.apply(setup, testConfiguration(SERVER));
    await setup.servers.create(SERVER);
    // Incompressible, so gzip takes long enough to be caught mid-write.
    for (let i = 0; i < 6; i += 1) fs.writeFileSync(path.join(setup.volumePath(SERVER), `chunk-${i}.bin`), randomBytes(8 * 1024 * 1024));
    const backup = randomUUID();
    const script = path.join(tempDir, 'child.mts');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { LocalDaemon } from ${JSON.stringify(path.resolve('server/daemon/local/index.ts'))};
import { testConfiguration } from ${JSON.stringify(path.resolve('server/test/daemon-contract/support.ts'))};
import { ConfigurationStore } from ${JSON.stringify(path.resolve('server/test/configuration-store.ts'))};

const store = new ConfigurationStore();
const [dataDir, server, backup] = process.argv.slice(2);
const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, log: () => undefined });
await store.apply(daemon, testConfiguration(server));
await daemon.backups.create(server, backup, []);
const dir = dataDir + '/backups/' + server;
const poll = setInterval(() => {
  const parts = (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((n) => n.startsWith('.aerie-'));
  if (parts.some((n) => fs.statSync(dir + '/' + n).size > 0)) { console.log('writing'); clearInterval(poll); }
}, 2);
`,
    );
    const child = spawn(path.resolve('node_modules/.bin/tsx'), [script, tempDir, SERVER, backup], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => {
        if (String(data).includes('writing')) resolve();
      });
      child.once('exit', () => reject(new Error('the child ended before it was writing')));
    });
    child.kill('SIGKILL');
    await exited;
    const dir = path.join(tempDir, 'backups', SERVER);
    // Killed mid-write: the part is there, the archive is not.
    expect(fs.readdirSync(dir).some((n) => n.startsWith('.aerie-'))).toBe(true);
    expect(fs.existsSync(path.join(dir, `${backup}.tar.gz`))).toBe(false);

    // The process that serves the node sweeps at start (main.ts), as it sweeps the volumes.
    const restarted = new LocalDaemon(tempDir, { configurationSource: store.source, log: () => undefined });
    restarted.sweepLeftovers();
    await eventually(() => fs.readdirSync(dir).length === 0);
  }, 60_000);
});
