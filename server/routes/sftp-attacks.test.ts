import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { describe, expect } from 'vitest';
import type { ServerRow, UserRow } from '../db/schema';
import { test as base } from '../test/fixtures';
import { CANARY_HOST, CANARY_S2, volumeUsage } from '../test/files-support';
import { loadHostKey, newKeyPair } from '../daemon/local/sftp';
import { setServerStatus } from '../services/servers';
import { sftpAuthenticator } from '../services/sftp-auth';
import { addSshKey } from '../services/ssh-keys';
import { connect, ops, setSubuser, startSftp } from '../test/sftp-support';

/*
 * Red-team pass on the SFTP subsystem (issue 14; attacks T-PATH-*, T-SESS-4, T-DOS-3, T-DOS-5):
 * a hostile tenant with ssh2's client against the real panel and node. Each test names what it
 * tries; canaries in the other volume and on the host must never change.
 */

const PASSWORD = 'correct horse battery';
const { OPEN_MODE } = ssh2.utils.sftp;

const test = base.extend('sftp', async ({ files }, { onCleanup }) => startSftp(files.panel, onCleanup));

const login = (user: UserRow, server: ServerRow) => `${user.username}.${server.uuid.slice(0, 8)}`;

/** Raw handle calls, promisified: what a hostile client sends, not what a polite one would. */
function raw(sftp: SFTPWrapper) {
  const p = <T>(fn: (cb: (error: Error | null | undefined, value?: T) => void) => void) =>
    new Promise<T>((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value as T))));
  return {
    open: (file: string, flags: number) => p<Buffer>((cb) => sftp.open(file, flags, cb)),
    read: (handle: Buffer, length: number, position: number) =>
      p<number>((cb) => sftp.read(handle, Buffer.alloc(length), 0, length, position, (e, n) => cb(e, n))),
    write: (handle: Buffer, data: Buffer, position: number) => p<void>((cb) => sftp.write(handle, data, 0, data.length, position, (e) => cb(e))),
    close: (handle: Buffer) => p<void>((cb) => sftp.close(handle, (e) => cb(e))),
    setstat: (file: string, attrs: object) => p<void>((cb) => sftp.setstat(file, attrs, (e) => cb(e))),
    fsetstat: (handle: Buffer, attrs: object) => p<void>((cb) => sftp.fsetstat(handle, attrs, (e) => cb(e))),
    opendir: (dir: string) => p<Buffer>((cb) => sftp.opendir(dir, cb)),
  };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SFTP attacks: paths', () => {
  test('.., NUL, over-long paths and backslashes on every operation stay in the volume', async ({ files, sftp, onTestFinished }) => {
    files.put('a.txt', 'mine');
    const before = files.snapshot();
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const o = ops(s);
    const r = raw(s);
    const escapes = [
      '..',
      '../',
      '/..',
      '/../..',
      'a/../../..',
      `/../${files.s2.uuid}/canary.txt`,
      `../${files.s2.uuid}`,
      `/./../${files.s2.uuid}/../${files.s2.uuid}/canary.txt`,
      'a.txt\0/../../host/canary.txt',
      `/${'x/'.repeat(3000)}`,
      '/../host/canary.txt',
      '/../../host/canary.txt',
    ];
    for (const p of escapes) {
      await expect(o.read(p)).rejects.toThrow();
      await expect(o.write(p, 'pwned')).rejects.toThrow();
      await expect(o.remove(p)).rejects.toThrow();
      await expect(o.rmdir(p)).rejects.toThrow();
      await expect(o.chmod(p, 0o777)).rejects.toThrow();
      await expect(o.rename('/a.txt', p)).rejects.toThrow();
      await expect(o.rename(p, '/stolen')).rejects.toThrow();
    }
    // A backslash is a file-name character: it names a file inside the volume, never a climb.
    await o.write('..\\evil', 'inside');
    expect(files.read('..\\evil')).toBe('inside');
    await expect(o.mkdir('/../escaped')).rejects.toThrow();
    await expect(r.open('/a.txt\0', OPEN_MODE.READ)).rejects.toThrow();
    expect(files.read('a.txt')).toBe('mine');
    expect(files.snapshot()).toEqual(before);
    expect(fs.existsSync(path.join(files.panel.dataDir, 'volumes', 'escaped'))).toBe(false);
  });

  test('a planted link to a directory outside, on every operation that takes a path', async ({ files, sftp, onTestFinished }) => {
    files.link('out', files.v2);
    files.link('host', path.dirname(files.hostCanary));
    files.put('mine.txt', 'mine');
    const before = files.snapshot();
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const o = ops(s);
    const r = raw(s);
    for (const dir of ['/out', '/host']) {
      const inside = `${dir}/canary.txt`;
      await expect(r.open(inside, OPEN_MODE.READ)).rejects.toThrow();
      await expect(r.open(inside, OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC)).rejects.toThrow();
      await expect(r.open(`${dir}/new.txt`, OPEN_MODE.WRITE | OPEN_MODE.CREAT)).rejects.toThrow();
      await expect(r.open(inside, OPEN_MODE.APPEND | OPEN_MODE.WRITE)).rejects.toThrow();
      await expect(r.opendir(dir)).rejects.toThrow();
      await expect(r.opendir(`${dir}/`)).rejects.toThrow();
      await expect(o.stat(inside)).rejects.toThrow();
      await expect(o.mkdir(`${dir}/made`)).rejects.toThrow();
      await expect(o.mkdir(`${dir}/deep/er`)).rejects.toThrow();
      await expect(o.rename('/mine.txt', `${dir}/mine.txt`)).rejects.toThrow();
      await expect(o.rename(inside, '/stolen.txt')).rejects.toThrow();
      await expect(o.remove(inside)).rejects.toThrow();
      await expect(o.rmdir(`${dir}/`)).rejects.toThrow();
      await expect(r.setstat(inside, { mode: 0o777 })).rejects.toThrow();
      await expect(r.setstat(dir, { mode: 0o777 })).rejects.toThrow();
    }
    // The link itself is the tenant's: stat shows a link, removing it removes only the link.
    await o.remove('/out');
    expect(fs.readFileSync(path.join(files.v2, 'canary.txt'), 'utf8')).toBe(CANARY_S2);
    expect(fs.readFileSync(files.hostCanary, 'utf8')).toBe(CANARY_HOST);
    const after = files.snapshot();
    expect(after).toEqual(before);
    expect(files.exists('stolen.txt')).toBe(false);
  });

  test('renames onto a link, of a directory into itself, and of a link: nothing follows', async ({ files, sftp, onTestFinished }) => {
    files.link('to-host', files.hostCanary);
    files.link('to-s2', files.v2);
    files.put('dir/inner/f.txt', 'f');
    files.put('payload.txt', 'pwned');
    const before = files.snapshot();
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    await expect(o.rename('/payload.txt', '/to-host')).rejects.toThrow();
    await expect(o.rename('/payload.txt', '/to-s2')).rejects.toThrow();
    await expect(o.rename('/payload.txt', '/to-s2/canary.txt')).rejects.toThrow();
    await expect(o.rename('/dir', '/dir/inner/dir')).rejects.toThrow();
    await expect(o.rename('/dir', '/dir')).rejects.toThrow();
    // Moving the link moves the link, not what it names.
    await o.rename('/to-host', '/moved-link');
    expect(fs.lstatSync(path.join(files.v1, 'moved-link')).isSymbolicLink()).toBe(true);
    await expect(o.read('/moved-link')).rejects.toThrow();
    await expect(o.write('/moved-link', 'pwned')).rejects.toThrow();
    expect(fs.readFileSync(files.hostCanary, 'utf8')).toBe(CANARY_HOST);
    expect(files.snapshot()).toEqual(before);
    expect(files.read('dir/inner/f.txt')).toBe('f');
  });

  test('a folder swapped for a link to another volume while a write is open: nothing lands outside', async ({ files, sftp, onTestFinished }) => {
    files.put('uploads/keep.txt', 'k');
    const before = files.snapshot();
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const r = raw(s);
    const handle = await r.open('/uploads/new.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await r.write(handle, Buffer.from('pwned'), 0);
    // The tenant's own process swaps the folder between OPEN and CLOSE (TOCTOU).
    fs.renameSync(path.join(files.v1, 'uploads'), path.join(files.v1, 'uploads-old'));
    fs.symlinkSync(files.v2, path.join(files.v1, 'uploads'));
    await expect(r.close(handle)).rejects.toThrow();
    expect(fs.existsSync(path.join(files.v2, 'new.txt'))).toBe(false);
    expect(files.snapshot()).toEqual(before);
  });

  test('a hard link planted to a host file: a write replaces the link, chmod does not reach the host file', async ({
    files,
    sftp,
    onTestFinished,
  }) => {
    fs.chmodSync(files.hostCanary, 0o640);
    fs.linkSync(files.hostCanary, path.join(files.v1, 'hard.txt'));
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    await expect(o.chmod('/hard.txt', 0o777)).rejects.toThrow();
    expect(fs.statSync(files.hostCanary).mode & 0o777).toBe(0o640);
    // A write places a new file under the name: the host file keeps its content.
    await o.write('/hard.txt', 'pwned');
    expect(fs.readFileSync(files.hostCanary, 'utf8')).toBe(CANARY_HOST);
    expect(files.read('hard.txt')).toBe('pwned');
  });
});

describe('SFTP attacks: chmod (T-FS-7; the file manager has no chmod route)', () => {
  test('never reaches through a link, and never sets setuid, setgid or sticky bits', async ({ files, sftp, onTestFinished }) => {
    files.put('run.sh', '#!/bin/sh');
    files.put('dir/x.txt', 'x');
    files.link('L', path.join(files.v2, 'canary.txt'));
    files.link('DL', files.v2);
    const before = files.snapshot();
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const o = ops(s);
    const r = raw(s);
    for (const p of ['/L', '/DL', '/DL/canary.txt']) {
      await expect(o.chmod(p, 0o777)).rejects.toThrow();
      await expect(r.setstat(p, { mode: 0o777 })).rejects.toThrow();
    }
    expect(files.snapshot()).toEqual(before);
    const modeOf = (rel: string) => fs.statSync(path.join(files.v1, rel)).mode & 0o7777;
    for (const mode of [0o4755, 0o2755, 0o7777, 0o1777, 0xffffffff, 0o100755]) {
      await o.chmod('/run.sh', mode).catch(() => undefined);
      await r.setstat('/dir', { mode }).catch(() => undefined);
      expect(modeOf('run.sh') & 0o7000, mode.toString(8)).toBe(0);
      expect(modeOf('dir') & 0o7000, mode.toString(8)).toBe(0);
    }
    await o.chmod('/run.sh', 0o4750);
    expect(modeOf('run.sh')).toBe(0o750);
    expect(files.snapshot()).toEqual(before);
  });
});

describe('SFTP attacks: handles', () => {
  test('a handle after CLOSE, a made-up handle, another session’s handle: refused', async ({ files, sftp, onTestFinished }) => {
    files.put('a.txt', 'secret');
    const username = login(files.owner, files.s1);
    const connected = await connect(sftp.port, { username, password: PASSWORD }, onTestFinished);
    const first = raw(connected.sftp);
    const second = raw((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp);
    const handle = await first.open('/a.txt', OPEN_MODE.READ);
    await expect(second.read(handle, 6, 0)).rejects.toThrow();
    expect(await first.read(handle, 6, 0)).toBe(6);
    await first.close(handle);
    await expect(first.read(handle, 6, 0)).rejects.toThrow();
    await expect(first.close(handle)).rejects.toThrow();
    await expect(first.read(Buffer.alloc(8), 6, 0)).rejects.toThrow();
    // A read handle does not write, a write handle does not read.
    const reading = await first.open('/a.txt', OPEN_MODE.READ);
    await expect(first.write(reading, Buffer.from('x'), 0)).rejects.toThrow();
    const writing = await first.open('/b.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT);
    await expect(first.read(writing, 1, 0)).rejects.toThrow();
    expect(files.read('a.txt')).toBe('secret');
    // A handle longer than the protocol allows (256 bytes) is a malformed packet: that connection ends.
    void first.read(Buffer.alloc(300, 1), 6, 0).catch(() => undefined);
    await connected.closed;
    expect(await ops((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp).read('/a.txt')).toBe('secret');
  });

  test('READ with a huge length or an offset far past the end: served in pieces, or EOF', async ({ files, sftp, onTestFinished }) => {
    files.put('big.bin', Buffer.alloc(1024 * 1024, 7));
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const r = raw(s);
    const handle = await r.open('/big.bin', OPEN_MODE.READ);
    // ssh2's client splits a long read itself; the node answers each piece with at most 256 KiB.
    expect(await r.read(handle, 1024 * 1024, 0)).toBe(1024 * 1024);
    expect(await r.read(handle, 10, 2 ** 40)).toBe(0);
    expect(await r.read(handle, 10, Number.MAX_SAFE_INTEGER)).toBe(0);
    // Still serving after all that.
    expect(await r.read(handle, 10, 0)).toBe(10);
  });

  test('a handle opened before the subuser lost file.read-content reads no more', async ({ files, sftp, onTestFinished }) => {
    files.put('a.txt', 'secret');
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read', 'file.read-content']);
    const r = raw((await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    const handle = await r.open('/a.txt', OPEN_MODE.READ);
    expect(await r.read(handle, 3, 0)).toBe(3);
    expect((await setSubuser(files, sub, ['file.sftp', 'file.read'])).statusCode).toBe(200);
    await settle(300);
    await expect(r.read(handle, 3, 3)).rejects.toThrow(/Permission denied/);
  });

  test('a write opened before the subuser lost file.create neither writes on nor places the file', async ({ files, sftp, onTestFinished }) => {
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read', 'file.create']);
    const r = raw((await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    const handle = await r.open('/planted.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT | OPEN_MODE.TRUNC);
    await r.write(handle, Buffer.from('first '), 0);
    expect((await setSubuser(files, sub, ['file.sftp', 'file.read'])).statusCode).toBe(200);
    await settle(300);
    await expect(r.write(handle, Buffer.from('second'), 6)).rejects.toThrow(/Permission denied/);
    await expect(r.close(handle)).rejects.toThrow(/Permission denied/);
    expect(files.exists('planted.txt')).toBe(false);
  });

  test('handles a session may hold open are capped; closing one frees a place', async ({ files, sftp, onTestFinished }) => {
    files.put('a.txt', 'a');
    const r = raw((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    const opened: Buffer[] = [];
    let refused = 0;
    for (let i = 0; i < 300 && refused === 0; i += 1) {
      await r.open('/a.txt', OPEN_MODE.READ).then(
        (h) => opened.push(h),
        () => (refused += 1),
      );
    }
    expect(refused).toBe(1);
    expect(opened.length).toBeLessThan(300);
    await expect(r.opendir('/')).rejects.toThrow();
    await expect(r.open('/w.txt', OPEN_MODE.WRITE | OPEN_MODE.CREAT)).rejects.toThrow();
    await r.close(opened[0] as Buffer);
    await r.open('/a.txt', OPEN_MODE.READ);
  });

  test('a burst of 1,000 pipelined OPENs: 64 handles, and the node never holds hundreds of descriptors for them', async ({
    files,
    sftp,
    onTestFinished,
  }) => {
    files.put('a.txt', 'a');
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const r = raw(s);
    // The node runs in this process: its descriptors are ours to count while the burst is worked on.
    const count = () => fs.readdirSync('/proc/self/fd').length;
    const before = count();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, count())), 0);
    const results = await Promise.allSettled(Array.from({ length: 1000 }, () => r.open('/a.txt', OPEN_MODE.READ)));
    clearInterval(sampler);
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(64);
    expect(peak - before).toBeLessThan(500);
    expect((await ops(s).stat('/a.txt')).size).toBe(1);
  });

  test('listings a user holds open are bounded together: one full listing, across all their sessions', async ({ files, sftp, onTestFinished }) => {
    // Each entry held costs about a kilobyte: 64 handles on a folder of 100,000 names took gigabytes.
    files.panel.daemon.files.maxListEntries = 1_000;
    for (let i = 0; i < 600; i += 1) files.put(`many/f${i}`, '');
    const username = login(files.owner, files.s1);
    const a = raw((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp);
    const b = raw((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp);
    const first = await a.opendir('/many');
    await expect(a.opendir('/many')).rejects.toThrow(/Too many directory entries/);
    await expect(b.opendir('/many')).rejects.toThrow(/Too many directory entries/);
    // Small listings still fit beside it, and closing the big one frees its share.
    await b.opendir('/');
    await a.close(first);
    await b.opendir('/many');
    // Another user is not held back by this one.
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read']);
    expect(
      await ops((await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished)).sftp).list('/many'),
    ).toHaveLength(600);
  });

  test('sessions one user may hold open at once are capped; the others of the server are not hit', async ({ files, sftp, onTestFinished }) => {
    const username = login(files.owner, files.s1);
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => connect(sftp.port, { username, password: PASSWORD }, onTestFinished)));
    const ok = results.filter((x) => x.status === 'fulfilled').length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(40);
    // Another user of the same server still gets in.
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read']);
    await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished);
  });
});

describe('SFTP attacks: the disk limit', () => {
  test('two sessions writing at once cannot together pass the limit', async ({ files, sftp, onTestFinished }) => {
    await files.panel.db.updateTable('servers').set({ disk: 2 }).where('id', '=', files.s1.id).execute();
    await files.panel.reconfigure(files.s1);
    const username = login(files.owner, files.s1);
    const a = raw((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp);
    const b = raw((await connect(sftp.port, { username, password: PASSWORD }, onTestFinished)).sftp);
    const ha = await a.open('/a.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT);
    const hb = await b.open('/b.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT);
    const chunk = Buffer.alloc(256 * 1024, 1);
    const pump = async (r: typeof a, h: Buffer) => {
      for (let i = 0; i < 6; i += 1) await r.write(h, chunk, i * chunk.length);
      await r.close(h);
    };
    const settled = await Promise.allSettled([pump(a, ha), pump(b, hb)]);
    expect(settled.filter((x) => x.status === 'rejected').length).toBeGreaterThanOrEqual(1);
    expect(volumeUsage(files.v1)).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  test('a server already over its limit (its own process wrote past it) takes no new bytes over SFTP', async ({ files, sftp, onTestFinished }) => {
    await files.panel.db.updateTable('servers').set({ disk: 1 }).where('id', '=', files.s1.id).execute();
    await files.panel.reconfigure(files.s1);
    files.put('huge.bin', Buffer.alloc(2 * 1024 * 1024, 1));
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    await expect(o.write('/new.txt', 'x')).rejects.toThrow(/Quota exceeded/);
    await expect(o.mkdir('/dir')).rejects.toThrow();
    expect(files.exists('new.txt')).toBe(false);
    // Deleting still works, and frees the room it took.
    await o.remove('/huge.bin');
    await o.write('/new.txt', 'x');
    expect(files.read('new.txt')).toBe('x');
  });

  test('a write far past the end, SETSTAT and FSETSTAT size: refused, nothing stored', async ({ files, sftp, onTestFinished }) => {
    await files.panel.db.updateTable('servers').set({ disk: 1 }).where('id', '=', files.s1.id).execute();
    await files.panel.reconfigure(files.s1);
    files.put('small.txt', 'x');
    const r = raw((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    const h = await r.open('/sparse.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT);
    await expect(r.write(h, Buffer.from('x'), 2 ** 40)).rejects.toThrow();
    await expect(r.close(h)).rejects.toThrow();
    const h2 = await r.open('/sparse2.bin', OPEN_MODE.WRITE | OPEN_MODE.CREAT);
    await expect(r.write(h2, Buffer.from('x'), Number.MAX_SAFE_INTEGER - 1)).rejects.toThrow();
    await expect(r.setstat('/small.txt', { size: 10 * 1024 ** 3 })).rejects.toThrow();
    const h3 = await r.open('/small.txt', OPEN_MODE.READ);
    await expect(r.fsetstat(h3, { size: 10 * 1024 ** 3 })).rejects.toThrow();
    expect(fs.statSync(path.join(files.v1, 'small.txt')).size).toBe(1);
    expect(files.exists('sparse.bin')).toBe(false);
    expect(files.exists('sparse2.bin')).toBe(false);
  });
});

describe('SFTP attacks: sign-in', () => {
  test('none, keyboard-interactive, odd usernames: refused like any failure', async ({ files, sftp, onTestFinished }) => {
    const ident = files.s1.uuid.slice(0, 8);
    const refused = (auth: Parameters<typeof connect>[1]) =>
      connect(sftp.port, auth, onTestFinished).then(
        () => 'signed in',
        (e: Error) => e.message,
      );
    expect(await refused({ username: login(files.owner, files.s1) })).toMatch(/authentication methods failed/);
    expect(
      await refused({
        username: login(files.owner, files.s1),
        tryKeyboard: true,
        authHandler: ['keyboard-interactive'] as never,
      }),
    ).toMatch(/authentication methods failed/);
    for (const username of [
      `${files.owner.username}.${files.s2.uuid.slice(0, 8)}`,
      `${files.owner.username}.${files.s1.uuid}`,
      `${files.owner.username}.`,
      `.${ident}`,
      `${files.owner.username}.${ident}.${ident}`,
      `${files.owner.username}\0.${ident}`,
      `${files.owner.username}.${files.s1.uuid.slice(0, 7)}`,
      `${'a'.repeat(5000)}.${ident}`,
    ]) {
      expect(await refused({ username, password: PASSWORD })).toMatch(/authentication methods failed/);
    }
  });

  test('a username with dots signs in (the last dot splits); an uppercase ident does not name the server', async ({
    files,
    sftp,
    onTestFinished,
  }) => {
    const dotted = await files.panel.user({ username: 'first.last' });
    await files.panel.subuser(files.s1, dotted, ['file.sftp', 'file.read']);
    const ident = files.s1.uuid.slice(0, 8);
    const attempt = (username: string) =>
      connect(sftp.port, { username, password: PASSWORD }, onTestFinished).then(
        () => 'signed in',
        () => 'refused',
      );
    expect(await attempt(`first.last.${ident}`)).toBe('signed in');
    expect(await attempt(`first.${ident}`)).toBe('refused');
    // An ident of digits only (about 1 in 50 uuids) has no case to change.
    if (ident !== ident.toUpperCase()) expect(await attempt(`${files.owner.username}.${ident.toUpperCase()}`)).toBe('refused');
    expect(await attempt(`${files.owner.username}.${ident.slice(0, 7)}${ident.endsWith('0') ? '1' : '0'}`)).toBe('refused');
  });

  test('alternating passwords and keys does not get round the throttle', async ({ files, sftp, onTestFinished }) => {
    const username = login(files.owner, files.s1);
    const attempt = (auth: Parameters<typeof connect>[1]) =>
      connect(sftp.port, auth, onTestFinished).then(
        () => 'signed in',
        () => 'refused',
      );
    const stranger = newKeyPair();
    for (let i = 0; i < 5; i += 1) {
      // A key the account does not hold is turned down at the client's query, before it signs (no failure: a key
      // cannot be guessed); `none` is no failure either; the wrong passwords between them are.
      expect(await attempt({ username, privateKey: stranger.private })).toBe('refused');
      expect(await attempt({ username })).toBe('refused');
      expect(await attempt({ username, password: `wrong ${i}` })).toBe('refused');
    }
    expect(await attempt({ username })).toBe('refused');
    expect(await attempt({ username, password: PASSWORD })).toBe('refused');
    // Another ident of the same account shares the account's bucket.
    const other = await files.panel.server(files.owner);
    expect(await attempt({ username: login(files.owner, other), password: PASSWORD })).toBe('refused');
  });

  test("a key's query says only whether the key is the account's, not which servers the account reaches", async ({ files }) => {
    const { panel } = files;
    const key = newKeyPair();
    const added = await addSshKey(panel.db, files.owner.id, 'laptop', key.public, panel.clock.now());
    const { authenticate } = sftpAuthenticator({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock });
    const ask = async (server: ServerRow | string) => {
      const ident = typeof server === 'string' ? server : server.uuid.slice(0, 8);
      const answer = await authenticate({
        username: `${files.owner.username}.${ident}`,
        ip: '203.0.113.9',
        method: 'publickey',
        fingerprint: added.fingerprint,
        checkOnly: true,
      });
      return answer !== null;
    };
    await setServerStatus(panel.db, files.s1.uuid, 'suspended', panel.clock.now());
    // Another's server, a suspended one of theirs, an ident that names nothing: the same answer as their own.
    expect([await ask(files.s2), await ask(files.s1), await ask('deadbeef')]).toEqual([true, true, true]);
    // The signed attempt still decides: no session for a server the account does not reach.
    const signed = await authenticate({
      username: login(files.owner, files.s2),
      ip: '203.0.113.9',
      method: 'publickey',
      fingerprint: added.fingerprint,
      checkOnly: false,
    });
    expect(signed).toBeNull();
  });

  test('a removed subuser cannot sign in again; a subuser of another server cannot reach this one', async ({ files, sftp, onTestFinished }) => {
    const sub = await files.panel.user();
    await files.panel.subuser(files.s2, sub, ['file.sftp', 'file.read']);
    const attempt = (server: ServerRow) =>
      connect(sftp.port, { username: login(sub, server), password: PASSWORD }, onTestFinished).then(
        () => 'signed in',
        () => 'refused',
      );
    expect(await attempt(files.s1)).toBe('refused');
    expect(await attempt(files.s2)).toBe('signed in');
    await files.panel.db.deleteFrom('subusers').where('user_id', '=', sub.id).execute();
    expect(await attempt(files.s2)).toBe('refused');
  });
});

describe('SFTP attacks: channels', () => {
  test('one connection holds at most 10 channels at once (OpenSSH MaxSessions); a closed one frees a place', async ({
    files,
    sftp,
    onTestFinished,
  }) => {
    const { client } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const open = () => new Promise<SFTPWrapper>((resolve, reject) => client.sftp((error, s) => (error ? reject(error) : resolve(s))));
    const results = await Promise.allSettled(Array.from({ length: 50 }, open));
    const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // The one connect() opened counts too.
    expect(opened).toHaveLength(9);
    const first = opened[0] as SFTPWrapper;
    await new Promise<void>((resolve) => {
      first.on('close', () => resolve());
      first.end();
    });
    await settle(50);
    expect(await ops(await open()).list('/')).toEqual([]);
  });
});

describe('SFTP attacks: connections that never sign in', () => {
  test('silent sockets are dropped at the sign-in deadline, and one address holds at most 10 at once', async ({ files, onTestFinished }) => {
    const node = await files.panel.daemon.startSftp({
      ...sftpAuthenticator({ config: files.panel.config, db: files.panel.db, nodes: files.panel.nodes, clock: files.panel.clock }),
      port: 0,
      host: '127.0.0.1',
      signInMs: 1_000,
    });
    onTestFinished(node.close);
    const sockets = Array.from({ length: 30 }, () => {
      const socket = net.connect(node.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.resume();
      onTestFinished(() => void socket.destroy());
      return { socket, closed: new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now()))) };
    });
    const start = Date.now();
    await settle(400);
    // Nothing sent, not even a version line: all but 10 are refused at once.
    expect(sockets.filter((s) => s.socket.destroyed).length).toBe(20);
    const last = Math.max(...(await Promise.all(sockets.map((s) => s.closed))));
    expect(last - start).toBeLessThan(3_000);
    // The address is free again: a real client signs in.
    const o = ops((await connect(node.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    expect(await o.list('/')).toEqual([]);
  });
});

describe('SFTP attacks: the host key', () => {
  test('every key made is one ssh2 can read (about one in 250 of its ed25519 keys is not); a kept unreadable one is replaced', async ({
    tempDir,
  }) => {
    for (let i = 0; i < 1_000; i += 1) {
      const dir = path.join(tempDir, String(i));
      fs.mkdirSync(dir);
      expect(ssh2.utils.parseKey(await loadHostKey(dir))).not.toBeInstanceOf(Error);
    }
    const broken = path.join(tempDir, 'broken');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'sftp_host_key'), '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n');
    const key = await loadHostKey(broken);
    expect(ssh2.utils.parseKey(key)).not.toBeInstanceOf(Error);
    expect(fs.statSync(path.join(broken, 'sftp_host_key')).mode & 0o777).toBe(0o600);
    expect(await loadHostKey(broken)).toBe(key);
  });
});
