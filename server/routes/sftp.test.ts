import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { ServerRow, UserRow } from '../db/schema';
import { sshKeys } from '../db/repos';
import { loadHostKey, newKeyPair } from '../daemon/local/sftp';
import { recordLocalSftp } from '../services/local-node';
import { addSshKey } from '../services/ssh-keys';
import { changePassword } from '../services/users';
import { setServerStatus } from '../services/servers';
import { postJson } from '../test/auth-support';
import { test as base } from '../test/fixtures';
import { CANARY_HOST, CANARY_S2, volumeUsage } from '../test/files-support';
import { connect, ops, setSubuser, startSftp } from '../test/sftp-support';

/*
 * The node's SFTP server with ssh2's client against a real panel: sign-in through the panel,
 * every operation through the file manager, its permissions, quota, confinement, activity and
 * the sessions a revocation closes.
 */

const PASSWORD = 'correct horse battery';

const test = base.extend('sftp', async ({ files }, { onCleanup }) => startSftp(files.panel, onCleanup));

const login = (user: UserRow, server: ServerRow) => `${user.username}.${server.uuid.slice(0, 8)}`;

/** The error a refused sign-in gives the client. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'signed in',
    (error: Error) => error.message,
  );
}

describe('SFTP sign-in', () => {
  test('the owner signs in with the panel password', async ({ files, sftp, onTestFinished }) => {
    files.put('hello.txt', 'hi');
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    expect(await ops(s).list('/')).toContain('hello.txt');
  });

  test('a key among the account SSH keys signs in; another key does not', async ({ files, sftp, onTestFinished }) => {
    const mine = newKeyPair();
    const other = newKeyPair();
    await addSshKey(files.panel.db, files.owner.id, 'laptop', mine.public, files.panel.clock.now());
    const { sftp: s } = await connect(sftp.port, { username: login(files.owner, files.s1), privateKey: mine.private }, onTestFinished);
    expect(await ops(s).realpath('.')).toBe('/');
    expect(await refusal(connect(sftp.port, { username: login(files.owner, files.s1), privateKey: other.private }, onTestFinished))).toMatch(
      /authentication methods failed/,
    );
  });

  test('a wrong password, an unknown user and a server of someone else are refused alike', async ({ files, sftp, onTestFinished }) => {
    const answers = await Promise.all([
      refusal(connect(sftp.port, { username: login(files.owner, files.s1), password: 'wrong password' }, onTestFinished)),
      refusal(connect(sftp.port, { username: `nobody.${files.s1.uuid.slice(0, 8)}`, password: PASSWORD }, onTestFinished)),
      refusal(connect(sftp.port, { username: login(files.owner, files.s2), password: PASSWORD }, onTestFinished)),
      refusal(connect(sftp.port, { username: files.owner.username, password: PASSWORD }, onTestFinished)),
    ]);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/authentication methods failed/);
    const failures = await files.panel.db.selectFrom('activity_logs').select('event').where('event', '=', 'auth:sftp.fail').execute();
    expect(failures).toHaveLength(4);
  });

  test('failures count against the web sign-in throttle: after five, even the right password is refused', async ({ files, sftp, onTestFinished }) => {
    const username = login(files.owner, files.s1);
    for (let i = 0; i < 5; i += 1) await refusal(connect(sftp.port, { username, password: `wrong ${i}` }, onTestFinished));
    expect(await refusal(connect(sftp.port, { username, password: PASSWORD }, onTestFinished))).toMatch(/authentication methods failed/);
    // The same bucket as the web sign-in of that account from that address.
    const web = await postJson(files.panel, '/auth/login', { user: files.owner.username, password: PASSWORD });
    expect(web.statusCode).toBe(429);
  });

  test('a subuser needs file.sftp; an admin and a 2FA user sign in; a suspended or installing server refuses', async ({
    files,
    sftp,
    onTestFinished,
  }) => {
    const { panel } = files;
    const without = await panel.user();
    await panel.subuser(files.s1, without, ['file.read', 'file.read-content']);
    const withSftp = await panel.user();
    await panel.subuser(files.s1, withSftp, ['file.sftp', 'file.read']);
    const admin = await panel.user({ admin: true });
    await panel.enableTotp(files.owner);
    const attempt = (user: UserRow) => refusal(connect(sftp.port, { username: login(user, files.s1), password: PASSWORD }, onTestFinished));
    expect(await attempt(without)).toMatch(/authentication methods failed/);
    expect(await attempt(withSftp)).toBe('signed in');
    expect(await attempt(admin)).toBe('signed in');
    expect(await attempt(files.owner)).toBe('signed in');
    for (const status of ['suspended', 'installing'] as const) {
      await setServerStatus(panel.db, files.s1.uuid, status, panel.clock.now());
      expect(await attempt(files.owner)).toMatch(/authentication methods failed/);
    }
  });
});

describe('SFTP operations', () => {
  test('write, read, list, rename, mkdir, delete: round trips the file manager sees, with activity', async ({ files, sftp, onTestFinished }) => {
    const { sftp: s, client } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const o = ops(s);
    await o.write('/notes.txt', 'hello over sftp');
    const viaApi = await files.call('GET', 'contents', { query: { file: '/notes.txt' } });
    expect(viaApi.body).toBe('hello over sftp');
    await o.write('/notes.txt', 'changed');
    expect(files.read('notes.txt')).toBe('changed');
    await o.mkdir('/docs');
    await o.rename('/notes.txt', '/docs/notes.txt');
    const listed = await files.call('GET', 'list', { query: { directory: '/docs' } });
    expect(listed.json().data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['notes.txt']);
    expect(await o.read('docs/notes.txt')).toBe('changed');
    expect(await o.list('/')).toEqual(['docs']);
    await o.chmod('/docs/notes.txt', 0o600);
    expect(fs.statSync(path.join(files.v1, 'docs/notes.txt')).mode & 0o777).toBe(0o600);
    await expect(o.rmdir('/docs')).rejects.toThrow();
    await o.remove('/docs/notes.txt');
    await o.rmdir('/docs');
    expect(fs.readdirSync(files.v1)).toEqual([]);
    client.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events = (await files.events()).filter((e) => e.event.startsWith('server:sftp.'));
    const byEvent = Object.fromEntries(events.map((e) => [e.event, e.properties]));
    expect(byEvent['server:sftp.create']).toEqual({ files: ['/notes.txt'], using_sftp: true });
    expect(byEvent['server:sftp.write']).toEqual({ files: ['/notes.txt'], using_sftp: true });
    expect(byEvent['server:sftp.create-directory']).toEqual({ files: ['/docs'], using_sftp: true });
    expect(byEvent['server:sftp.rename']).toEqual({ files: [{ from: '/notes.txt', to: '/docs/notes.txt' }], using_sftp: true });
    expect(byEvent['server:sftp.delete']).toEqual({ files: ['/docs/notes.txt', '/docs'], using_sftp: true });
    const actors = await files.panel.db.selectFrom('activity_logs').select('actor_id').where('event', 'like', 'server:sftp.%').execute();
    expect(actors.every((a) => a.actor_id === files.owner.id)).toBe(true);
  });

  test('each operation needs its permission', async ({ files, sftp, onTestFinished }) => {
    files.put('a.txt', 'secret');
    files.put('dir/b.txt', 'b');
    const as = async (permissions: string[]) => {
      const user = await files.panel.user();
      await files.panel.subuser(files.s1, user, ['file.sftp', ...permissions]);
      return ops((await connect(sftp.port, { username: login(user, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    };
    const none = await as([]);
    await expect(none.list('/')).rejects.toThrow(/Permission denied/);
    await expect(none.stat('/a.txt')).rejects.toThrow(/Permission denied/);
    await expect(none.read('/a.txt')).rejects.toThrow(/Permission denied/);
    await expect(none.write('/new.txt', 'x')).rejects.toThrow(/Permission denied/);
    await expect(none.write('/a.txt', 'x')).rejects.toThrow(/Permission denied/);
    await expect(none.mkdir('/d')).rejects.toThrow(/Permission denied/);
    await expect(none.rename('/a.txt', '/c.txt')).rejects.toThrow(/Permission denied/);
    await expect(none.chmod('/a.txt', 0o600)).rejects.toThrow(/Permission denied/);
    await expect(none.remove('/a.txt')).rejects.toThrow(/Permission denied/);

    const reader = await as(['file.read']);
    expect(await reader.list('/')).toEqual(['a.txt', 'dir']);
    await expect(reader.read('/a.txt')).rejects.toThrow(/Permission denied/);
    expect(await (await as(['file.read-content'])).read('/a.txt')).toBe('secret');

    const creator = await as(['file.create']);
    await creator.write('/new.txt', 'new');
    await creator.mkdir('/d');
    await expect(creator.write('/a.txt', 'overwrite')).rejects.toThrow(/Permission denied/);
    const updater = await as(['file.update']);
    await expect(updater.write('/other.txt', 'x')).rejects.toThrow(/Permission denied/);
    await updater.write('/a.txt', 'updated');
    await updater.rename('/new.txt', '/renamed.txt');
    await (await as(['file.delete'])).remove('/renamed.txt');
    expect(files.read('a.txt')).toBe('updated');
    expect(fs.readdirSync(files.v1).sort()).toEqual(['a.txt', 'd', 'dir']);
  });

  test('the disk limit holds during a write: over it fails and nothing is stored', async ({ files, sftp, onTestFinished }) => {
    await files.panel.db.updateTable('servers').set({ disk: 1 }).where('id', '=', files.s1.id).execute();
    await files.panel.reconfigure(files.s1);
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    await expect(o.write('/big.bin', Buffer.alloc(3 * 1024 * 1024, 1))).rejects.toThrow(/Quota exceeded/);
    expect(fs.readdirSync(files.v1)).toEqual([]);
    const area = path.join(files.panel.dataDir, 'volumes', '.aerie-tmp');
    expect(fs.readdirSync(area)).toEqual([]);
    expect(volumeUsage(files.v1)).toBeLessThanOrEqual(1024 * 1024);
    await o.write('/small.bin', Buffer.alloc(100 * 1024, 1));
    expect(fs.statSync(path.join(files.v1, 'small.bin')).size).toBe(100 * 1024);
  });

  test('paths stay in the volume: .., absolute paths, planted links and link creation', async ({ files, sftp, onTestFinished }) => {
    files.link('s2-canary', path.join(files.v2, 'canary.txt'));
    files.link('host-canary', files.hostCanary);
    files.link('s2-root', files.v2);
    files.link('etc', '/etc');
    const before = files.snapshot();
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    for (const p of ['/../', '../..', `../${files.s2.uuid}`, '/etc/passwd', '/etc/', '/s2-root/', '/s2-root/canary.txt', '/etc/hostname']) {
      await expect(o.list(p)).rejects.toThrow();
      await expect(o.read(p)).rejects.toThrow();
    }
    for (const p of ['/s2-canary', '/host-canary', `../${files.s2.uuid}/canary.txt`]) await expect(o.read(p)).rejects.toThrow();
    for (const p of ['/s2-canary', '/host-canary', '/s2-root/x.txt', '/etc/x', `../${files.s2.uuid}/x.txt`]) {
      await expect(o.write(p, 'pwned')).rejects.toThrow();
    }
    await expect(o.chmod('/host-canary', 0o777)).rejects.toThrow();
    await expect(o.rename('/s2-root/canary.txt', '/stolen.txt')).rejects.toThrow();
    await expect(o.symlink('/etc/passwd', '/mine')).rejects.toThrow();
    await expect(o.symlink(files.v2, '/mine')).rejects.toThrow();
    await o.remove('/host-canary');
    expect(await o.realpath('/../..')).toBe('/');
    expect(fs.readFileSync(files.hostCanary, 'utf8')).toBe(CANARY_HOST);
    expect(fs.readFileSync(path.join(files.v2, 'canary.txt'), 'utf8')).toBe(CANARY_S2);
    expect(files.snapshot()).toEqual(before);
    expect(fs.existsSync(path.join(files.v1, 'mine'))).toBe(false);
  });

  test('garbage before and after the handshake ends that connection only', async ({ files, sftp, onTestFinished }) => {
    const raw = net.connect(sftp.port, '127.0.0.1');
    onTestFinished(() => void raw.destroy());
    raw.write('SSH-2.0-garbage\r\n');
    raw.on('error', () => undefined);
    raw.write(Buffer.alloc(70_000, 0xff));
    // The node drops it (the client may not notice while its own write is pending).
    await new Promise((resolve) => setTimeout(resolve, 300));
    raw.destroy();

    const { client, closed } = await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished);
    const ended = await new Promise<string>((resolve, reject) =>
      client.subsys('sftp', (error, stream) => {
        if (error) return reject(error);
        void closed.then(() => resolve('closed'));
        // A packet claiming 2 GiB, then a short INIT, then noise.
        stream.write(Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]));
        stream.write(Buffer.from([0, 0, 0, 5, 1, 0, 0, 0, 3, 0xde, 0xad, 0xbe, 0xef]));
      }),
    );
    expect(ended).toBe('closed');
    const o = ops((await connect(sftp.port, { username: login(files.owner, files.s1), password: PASSWORD }, onTestFinished)).sftp);
    expect(await o.list('/')).toEqual([]);
  });
});

describe('SFTP sessions end when access does', () => {
  const closesWithin = (closed: Promise<void>, ms = 2_000) =>
    Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('open'), ms))]);

  test('removing the subuser closes their session', async ({ files, sftp, onTestFinished }) => {
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read']);
    const { closed } = await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished);
    expect((await setSubuser(files, sub, null)).statusCode).toBe(204);
    expect(await closesWithin(closed)).toBe('closed');
  });

  test('dropping file.sftp closes the session; dropping file.read takes effect at once', async ({ files, sftp, onTestFinished }) => {
    const sub = await files.panel.user();
    await files.panel.subuser(files.s1, sub, ['file.sftp', 'file.read']);
    const { closed, sftp: s } = await connect(sftp.port, { username: login(sub, files.s1), password: PASSWORD }, onTestFinished);
    const set = (permissions: string[]) => setSubuser(files, sub, permissions);
    expect((await set(['file.sftp'])).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(ops(s).list('/')).rejects.toThrow(/Permission denied/);
    expect((await set(['file.read'])).statusCode).toBe(200);
    expect(await closesWithin(closed)).toBe('closed');
  });

  test('a password change, a removed key, a suspension and a deletion close sessions', async ({ files, sftp, onTestFinished }) => {
    const { panel } = files;
    const username = login(files.owner, files.s1);
    const first = await connect(sftp.port, { username, password: PASSWORD }, onTestFinished);
    await changePassword(panel.db, files.owner.id, 'a new password', panel.clock.now());
    expect(await closesWithin(first.closed)).toBe('closed');

    const key = newKeyPair();
    const added = await addSshKey(panel.db, files.owner.id, 'k', key.public, panel.clock.now());
    const second = await connect(sftp.port, { username, privateKey: key.private }, onTestFinished);
    await sshKeys.removeByFingerprint(panel.db, files.owner.id, added.fingerprint);
    expect(await closesWithin(second.closed)).toBe('closed');

    const third = await connect(sftp.port, { username, password: 'a new password' }, onTestFinished);
    await setServerStatus(panel.db, files.s1.uuid, 'suspended', panel.clock.now());
    await panel.reconfigure(files.s1);
    expect(await closesWithin(third.closed)).toBe('closed');

    await setServerStatus(panel.db, files.s1.uuid, null, panel.clock.now());
    const fourth = await connect(sftp.port, { username, password: 'a new password' }, onTestFinished);
    // The node is told first (Wings: the server's sessions end with it), even before the panel forgets it.
    await panel.daemon.servers.delete(files.s1.uuid);
    expect(await closesWithin(fourth.closed)).toBe('closed');
  });
});

describe('sftp_details', () => {
  test('show the port the SFTP server listens on and a host the user can reach', async ({ files, sftp }) => {
    const { panel } = files;
    const details = async () =>
      (await panel.app.inject({ method: 'GET', url: `/api/client/servers/${files.s1.uuid}`, headers: files.ownerHeaders })).json().attributes
        .sftp_details;
    await recordLocalSftp(panel.db, panel.nodes, { host: '127.0.0.1', port: sftp.port }, undefined);
    expect(await details()).toEqual({ ip: '127.0.0.1', port: sftp.port });
    await recordLocalSftp(panel.db, panel.nodes, { host: '0.0.0.0', port: sftp.port }, 'https://panel.example.com:8443/');
    expect(await details()).toEqual({ ip: 'panel.example.com', port: sftp.port });
  });
});

describe('the host key', () => {
  test('is made once in the data dir, private to the panel, and kept across restarts', async ({ tempDir }) => {
    const first = await loadHostKey(tempDir);
    expect(first).toMatch(/BEGIN OPENSSH PRIVATE KEY/);
    expect(fs.statSync(path.join(tempDir, 'sftp_host_key')).mode & 0o777).toBe(0o600);
    expect(await loadHostKey(tempDir)).toBe(first);
  });
});
