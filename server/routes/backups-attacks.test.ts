import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { backups, servers } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import { signedTransferUrl } from '../services/node-tokens';
import { archiveMembers, restoreEnded, settled } from '../test/backups-support';
import { CANARY_HOST, CANARY_S2, nodePath, volumeUsage, type FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * The backups tab against attacks.md (T-AZ-9, T-AZ-2, T-RACE-1, T-FS-2, T-FS-6, T-DOS-3,
 * T-DOS-6, T-TOK-1): the real panel and its real local node, links and special files planted in
 * the volume as the tenant's own process would, archives downloaded through the signed links and
 * read member by member. OWNER_A owns S1, OWNER_B owns S2 (the file fixture).
 */

type Method = 'GET' | 'POST' | 'DELETE';
type Headers = Record<string, string>;

function backupApi(f: FileFixture) {
  const { panel } = f;
  const call = (method: Method, rest: string, options: { as?: Headers; on?: ServerRow; payload?: object } = {}) =>
    panel.app.inject({
      method,
      url: `/api/client/servers/${(options.on ?? f.s1).uuid}/backups${rest}`,
      headers: options.as ?? f.ownerHeaders,
      ...(options.payload ? { payload: options.payload } : {}),
    });
  return {
    call,
    /** A backup made through the API and finished by the node. */
    async backUp(options: { as?: Headers; on?: ServerRow; name?: string } = {}) {
      const res = await call('POST', '', { ...options, payload: { name: options.name ?? 'Nightly' } });
      expect(res.statusCode, res.body).toBe(200);
      // Past the reference throttle (2 per 10 minutes), so a test may make several.
      panel.clock.advance(601_000);
      return settled(panel, (res.json() as { attributes: { uuid: string } }).attributes.uuid);
    },
    /** The archive, fetched through the signed link as a browser would (no credentials). */
    async download(uuid: string, options: { as?: Headers; on?: ServerRow } = {}) {
      const link = await call('GET', `/${uuid}/download`, options);
      expect(link.statusCode, link.body).toBe(200);
      const archive = await panel.app.inject({ method: 'GET', url: nodePath(link.json()) });
      expect(archive.statusCode).toBe(200);
      return archive.rawPayload;
    },
    async subuser(permissions: string[]): Promise<{ user: UserRow; headers: Headers }> {
      const user = await panel.user();
      await panel.subuser(f.s1, user, permissions);
      return { user, headers: await panel.bearerHeaders(user) };
    },
    status: async (server = f.s1) => (await servers.findById(panel.db, server.id))?.status ?? null,
    events: async (server = f.s1) =>
      (
        await panel.db
          .selectFrom('activity_logs')
          .innerJoin('activity_subjects', 'activity_subjects.activity_log_id', 'activity_logs.id')
          .select(['activity_logs.event', 'activity_logs.properties'])
          .where('activity_subjects.subject_type', '=', 'server')
          .where('activity_subjects.subject_id', '=', server.id)
          .where('activity_logs.event', 'like', 'server:backup.%')
          .orderBy('activity_logs.id')
          .execute()
      ).map((row) => ({ event: row.event, properties: JSON.parse(row.properties) as unknown })),
  };
}

async function setDiskMiB(f: FileFixture, mib: number): Promise<void> {
  await f.panel.db.updateTable('servers').set({ disk: mib }).where('id', '=', f.s1.id).execute();
  await f.panel.reconfigure(f.s1);
}

/** The time one API request takes: the node's background work must not hold the panel up. */
async function answersWithin(f: FileFixture, ms: number): Promise<void> {
  const started = Date.now();
  const res = await backupApi(f).call('GET', '');
  expect(res.statusCode).toBe(200);
  expect(Date.now() - started).toBeLessThan(ms);
}

describe('T-AZ-9 / T-AZ-2: backup permissions and ownership', () => {
  it('a creator cannot lock; a locked backup is kept; restore and download need their own permission', async ({ files: f }) => {
    const bk = backupApi(f);
    f.put('world.dat', 'level');
    const creator = await bk.subuser(['backup.create', 'backup.read']);
    const created = await bk.call('POST', '', { as: creator.headers, payload: { name: 'Mine', is_locked: true } });
    expect(created.statusCode).toBe(200);
    expect(created.json().attributes.is_locked).toBe(false);
    const backup = await settled(f.panel, created.json().attributes.uuid as string);
    expect(backup.is_successful).toBe(1);
    expect((await bk.call('POST', `/${backup.uuid}/lock`, { as: creator.headers })).statusCode).toBe(403);
    expect((await bk.call('POST', `/${backup.uuid}/restore`, { as: creator.headers, payload: { truncate: false } })).statusCode).toBe(403);
    expect((await bk.call('GET', `/${backup.uuid}/download`, { as: creator.headers })).statusCode).toBe(403);
    expect((await bk.call('DELETE', `/${backup.uuid}`, { as: creator.headers })).statusCode).toBe(403);

    // Locked by the owner: kept from deletion until unlocked.
    expect((await bk.call('POST', `/${backup.uuid}/lock`)).json().attributes.is_locked).toBe(true);
    const refused = await bk.call('DELETE', `/${backup.uuid}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].code).toBe('BackupLockedException');
    expect(fs.existsSync(path.join(f.panel.dataDir, 'backups', f.s1.uuid, `${backup.uuid}.tar.gz`))).toBe(true);

    const downloader = await bk.subuser(['backup.download']);
    expect((await archiveMembers(await bk.download(backup.uuid, { as: downloader.headers }))).contents.get('world.dat')).toBe('level');
    const restorer = await bk.subuser(['backup.restore']);
    f.put('world.dat', 'changed');
    expect((await bk.call('POST', `/${backup.uuid}/restore`, { as: restorer.headers, payload: { truncate: false } })).statusCode).toBe(204);
    await restoreEnded(f.panel, f.s1.id);
    expect(f.read('world.dat')).toBe('level');

    expect((await bk.call('POST', `/${backup.uuid}/lock`)).json().attributes.is_locked).toBe(false);
    expect((await bk.call('DELETE', `/${backup.uuid}`)).statusCode).toBe(204);
  });

  it('refuses to restore a backup still running (400) and a second restore while one runs (409), changing nothing', async ({ files: f }) => {
    const bk = backupApi(f);
    // Incompressible, so the restore is still running when the next requests arrive.
    f.put('big.bin', randomBytes(16 * 1024 * 1024));
    const done = await bk.backUp();
    const running = await backups.insert(f.panel.db, {
      uuid: crypto.randomUUID(),
      server_id: f.s1.id,
      name: 'Running',
      ignored_files: [],
      is_locked: false,
      now: f.panel.clock.now(),
    });
    const early = await bk.call('POST', `/${running.uuid}/restore`, { payload: { truncate: true } });
    expect(early.statusCode).toBe(400);
    expect(early.json().errors[0].detail).toBe('This backup cannot be restored at this time: not completed or failed.');
    expect(await bk.status()).toBeNull();
    expect(f.exists('big.bin')).toBe(true);

    expect((await bk.call('POST', `/${done.uuid}/restore`, { payload: { truncate: false } })).statusCode).toBe(204);
    for (const [method, rest, payload] of [
      ['POST', `/${done.uuid}/restore`, { truncate: true }],
      ['POST', '', { name: 'during' }],
      ['DELETE', `/${done.uuid}`],
      ['GET', `/${done.uuid}/download`],
    ] as const) {
      const res = await bk.call(method, rest, { payload });
      expect(res.statusCode, `${method} ${rest}`).toBe(409);
      expect(res.json().errors[0].code).toBe('ServerStateConflictException');
    }
    await restoreEnded(f.panel, f.s1.id);
    expect((await bk.events()).map((e) => e.event)).toEqual([
      'server:backup.start',
      'server:backup.complete',
      'server:backup.restore',
      'server:backup.restore-complete',
    ]);
    expect(await backups.countNotFailed(f.panel.db, f.s1.id)).toBe(2);
  });

  it("answers 404 to every backup verb on S2's backup through S1's URL, and S2's backup is untouched", async ({ files: f }) => {
    const bk = backupApi(f);
    const ownerB = await f.panel.bearerHeaders(f.otherOwner);
    const theirs = await bk.backUp({ as: ownerB, on: f.s2 });
    expect(theirs.is_successful).toBe(1);
    const before = f.snapshot();
    for (const [method, rest, payload] of [
      ['GET', `/${theirs.uuid}`],
      ['POST', `/${theirs.uuid}/lock`],
      ['POST', `/${theirs.uuid}/restore`, { truncate: true }],
      ['DELETE', `/${theirs.uuid}`],
      ['GET', `/${theirs.uuid}/download`],
    ] as const) {
      const res = await bk.call(method, rest, { payload });
      expect(res.statusCode, `${method} ${rest}`).toBe(404);
      expect(res.body).not.toContain(CANARY_S2);
    }
    // And OWNER_A on S2's own URL: not theirs to see.
    expect((await bk.call('GET', `/${theirs.uuid}`, { on: f.s2 })).statusCode).toBe(404);
    expect(f.snapshot()).toEqual(before);
    expect(await backups.findByUuid(f.panel.db, theirs.uuid)).toMatchObject({ is_locked: 0, deleted_at: null });
    expect(await bk.status(f.s2)).toBeNull();
    expect((await bk.events(f.s1)).map((e) => e.event)).toEqual([]);
    expect((await archiveMembers(await bk.download(theirs.uuid, { as: ownerB, on: f.s2 }))).contents.get('canary.txt')).toBe(CANARY_S2);
  });
});

describe('T-RACE-1: the backup limit under concurrency', () => {
  it('lets exactly one of 50 parallel creates through at a limit of 1', async ({ makeFiles }) => {
    const f = await makeFiles({ backupThrottle: { limit: 2, periodSeconds: 0 } });
    const bk = backupApi(f);
    await f.panel.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', f.s1.id).execute();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => bk.call('POST', '', { payload: { name: `race ${i}` } })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 400 || c === 429)).toBe(true);
    const winner = results.find((r) => r.statusCode === 200)?.json().attributes.uuid as string;
    expect((await settled(f.panel, winner)).is_successful).toBe(1);
    expect(await f.panel.db.selectFrom('backups').select('uuid').where('server_id', '=', f.s1.id).execute()).toEqual([{ uuid: winner }]);
    expect(fs.readdirSync(path.join(f.panel.dataDir, 'backups', f.s1.uuid))).toEqual([`${winner}.tar.gz`]);

    // Ten restores at once: one begins, the others are refused.
    const restores = await Promise.all(Array.from({ length: 10 }, () => bk.call('POST', `/${winner}/restore`, { payload: { truncate: false } })));
    // 409 from the server's state, or 400 for one that passed that check just before the winner set it.
    expect(restores.filter((r) => r.statusCode === 204)).toHaveLength(1);
    expect(restores.every((r) => [204, 400, 409].includes(r.statusCode))).toBe(true);
    await restoreEnded(f.panel, f.s1.id);
    expect((await bk.events()).filter((e) => e.event === 'server:backup.restore')).toHaveLength(1);
  });

  it('lets exactly the throttle through when 50 creates arrive together under a high limit', async ({ files: f }) => {
    const bk = backupApi(f);
    await f.panel.db.updateTable('servers').set({ backup_limit: 100 }).where('id', '=', f.s1.id).execute();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => bk.call('POST', '', { payload: { name: `burst ${i}` } })));
    const through = results.filter((r) => r.statusCode === 200);
    expect(through).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(48);
    for (const r of through) await settled(f.panel, r.json().attributes.uuid as string);
    expect(await backups.countNotFailed(f.panel.db, f.s1.id)).toBe(2);
  });
});

describe('T-FS-2: links planted in the volume', () => {
  it('never archives what a link points at, and a truncating restore deletes only inside S1', async ({ files: f }) => {
    const bk = backupApi(f);
    f.put('plain.txt', 'plain');
    f.link('L', path.join(f.v2, 'canary.txt'));
    f.link('LH', f.hostCanary);
    f.link('DL', f.hostDir);
    f.link('S2', f.v2);
    f.link('sub/deep', path.join(f.v2, 'sub'));
    const backup = await bk.backUp();
    expect(backup.is_successful).toBe(1);
    const archive = await bk.download(backup.uuid);
    const { contents, types } = await archiveMembers(archive);
    expect([...contents.keys()].sort()).toEqual(['plain.txt', 'sub/']);
    expect(types.every((t) => t === 'File' || t === 'Directory')).toBe(true);
    expect(archive.includes(CANARY_S2)).toBe(false);
    expect([...contents.values()].join('')).not.toMatch(/CANARY/);

    const before = f.snapshot();
    expect((await bk.call('POST', `/${backup.uuid}/restore`, { payload: { truncate: true } })).statusCode).toBe(204);
    await restoreEnded(f.panel, f.s1.id);
    expect((await bk.events()).at(-1)?.event).toBe('server:backup.restore-complete');
    // The links are gone with everything else of S1; what they pointed at is not.
    expect(fs.readdirSync(f.v1).sort()).toEqual(['plain.txt', 'sub']);
    expect(fs.readdirSync(path.join(f.v1, 'sub'))).toEqual([]);
    expect(f.snapshot()).toEqual(before);
    expect(fs.readFileSync(path.join(f.v2, 'canary.txt'), 'utf8')).toBe(CANARY_S2);
    expect(fs.readFileSync(f.hostCanary, 'utf8')).toBe(CANARY_HOST);
  });
});

describe('T-FS-6: special files in the volume', () => {
  it('skips a FIFO and a UNIX socket: the backup completes at once and the API keeps answering', async ({ files: f }) => {
    const bk = backupApi(f);
    f.put('plain.txt', 'plain');
    execFileSync('mkfifo', [path.join(f.v1, 'pipe')]);
    // Where the node looks for ignore rules when the panel sends none: never read, never waited on.
    execFileSync('mkfifo', [path.join(f.v1, '.pteroignore')]);
    const socket = net.createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(f.v1, 'game.sock'), resolve));
    try {
      const started = Date.now();
      const created = await bk.call('POST', '', { payload: { name: 'Specials' } });
      expect(created.statusCode).toBe(200);
      await answersWithin(f, 1_000);
      const backup = await settled(f.panel, created.json().attributes.uuid as string, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(backup.is_successful).toBe(1);
      expect([...(await archiveMembers(await bk.download(backup.uuid))).contents.keys()]).toEqual(['plain.txt']);
    } finally {
      await new Promise((resolve) => socket.close(resolve));
    }
  });
});

describe('T-DOS-3: a restore under a nearly full disk limit', () => {
  const LIMIT = 1024 * 1024;
  const H = 64 * 1024;

  it.for([
    ['1 byte', H + 1],
    ['10×', 10 * H],
  ] as const)('fails a restore %s over the headroom: nothing lands, the status clears, the entry says so', async ([, size], { files: f }) => {
    const bk = backupApi(f);
    await setDiskMiB(f, 1);
    f.put('saved.bin', randomBytes(size));
    const backup = await bk.backUp();
    expect(backup.is_successful).toBe(1);
    fs.rmSync(path.join(f.v1, 'saved.bin'));
    // Exactly H free: the restore needs one block (or ten times) more.
    f.put('filler.bin', Buffer.alloc(LIMIT - volumeUsage(f.v1) - H));
    expect(LIMIT - volumeUsage(f.v1)).toBe(H);

    expect((await bk.call('POST', `/${backup.uuid}/restore`, { payload: { truncate: false } })).statusCode).toBe(204);
    await restoreEnded(f.panel, f.s1.id);
    expect(await bk.status()).toBeNull();
    expect((await bk.events()).at(-1)).toEqual({ event: 'server:backup.restore-failed', properties: { name: 'Nightly' } });
    expect(fs.readdirSync(f.v1)).toEqual(['filler.bin']);
    expect(volumeUsage(f.v1)).toBe(LIMIT - H);
  });
});

describe('T-DOS-6: sparse files and hard links', () => {
  it('refuses at once the backup of a 1 TiB sparse file (it could never be restored under the limit)', async ({ files: f }) => {
    const bk = backupApi(f);
    f.put('small.txt', 'small');
    const sparse = path.join(f.v1, 'sparse.bin');
    fs.writeFileSync(sparse, '');
    fs.truncateSync(sparse, 1024 ** 4);
    const started = Date.now();
    const created = await bk.call('POST', '', { payload: { name: 'Sparse' } });
    expect(created.statusCode).toBe(200);
    await answersWithin(f, 1_000);
    const backup = await settled(f.panel, created.json().attributes.uuid as string, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(backup).toMatchObject({ is_successful: 0, bytes: 0, checksum: null });
    expect(fs.readdirSync(path.join(f.panel.dataDir, 'backups', f.s1.uuid))).toEqual([]);
    expect((await bk.events()).at(-1)?.event).toBe('server:backup.fail');
  });

  it('bounds the backup of a thousand hard links to one file by the disk limit', async ({ files: f }) => {
    const bk = backupApi(f);
    await setDiskMiB(f, 64);
    // 256 KiB, a thousand names: one file to the disk limit, 250 MiB to read and to restore.
    f.put('one.bin', Buffer.alloc(256 * 1024, 'a'));
    fs.mkdirSync(path.join(f.v1, 'links'));
    for (let i = 0; i < 1000; i += 1) fs.linkSync(path.join(f.v1, 'one.bin'), path.join(f.v1, 'links', `l${i}`));
    expect(volumeUsage(f.v1)).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const created = await bk.call('POST', '', { payload: { name: 'Links' } });
    await answersWithin(f, 1_000);
    const refused = await settled(f.panel, created.json().attributes.uuid as string, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refused.is_successful).toBe(0);
    expect(fs.readdirSync(path.join(f.panel.dataDir, 'backups', f.s1.uuid))).toEqual([]);

    // Fewer links, within the limit: archived (each name holds the content) and restorable.
    for (let i = 100; i < 1000; i += 1) fs.rmSync(path.join(f.v1, 'links', `l${i}`));
    f.panel.clock.advance(601_000);
    const backup = await bk.backUp({ name: 'Fewer links' });
    expect(backup.is_successful).toBe(1);
    expect(backup.bytes).toBeLessThan(1024 * 1024);
    expect((await bk.call('POST', `/${backup.uuid}/restore`, { payload: { truncate: true } })).statusCode).toBe(204);
    await restoreEnded(f.panel, f.s1.id);
    expect((await bk.events()).at(-1)?.event).toBe('server:backup.restore-complete');
    expect(fs.readdirSync(path.join(f.v1, 'links'))).toHaveLength(100);
  });
});

describe('T-TOK-1: a token works only for its own purpose and server', () => {
  it('refuses a backup token at the file endpoints, a file token at the backup endpoint, and another server’s backup', async ({ files: f }) => {
    const bk = backupApi(f);
    f.put('a.txt', 'a');
    const mine = await bk.backUp();
    const backupLink = nodePath((await bk.call('GET', `/${mine.uuid}/download`)).json());
    const backupToken = new URL(backupLink, 'http://node').searchParams.get('token') ?? '';
    const fileLink = nodePath(
      (
        await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/files/download?file=/a.txt`, headers: f.ownerHeaders })
      ).json(),
    );
    const fileToken = new URL(fileLink, 'http://node').searchParams.get('token') ?? '';
    const uploadToken = new URL(await f.uploadPath(), 'http://node').searchParams.get('token') ?? '';
    const boundary = 'tokenBoundary';
    const multipart = {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="planted.txt"\r\nContent-Type: text/plain\r\n\r\nplanted\r\n--${boundary}--\r\n`,
    };
    const refusedLink = (res: { statusCode: number; json: () => { errors: { code: string }[] } }) => {
      expect(res.statusCode).toBe(403);
      expect(res.json().errors[0]?.code).toBe('AccessDeniedHttpException');
    };

    refusedLink(await f.panel.app.inject({ method: 'GET', url: `/download/file?token=${backupToken}` }));
    refusedLink(await f.panel.app.inject({ method: 'POST', url: `/upload/file?token=${backupToken}&directory=/`, ...multipart }));
    refusedLink(await f.panel.app.inject({ method: 'GET', url: `/download/backup?token=${fileToken}` }));
    refusedLink(await f.panel.app.inject({ method: 'GET', url: `/download/backup?token=${uploadToken}` }));
    expect(f.exists('planted.txt')).toBe(false);
    // Refused for their purpose, not spent: each still works where it belongs.
    expect((await f.panel.app.inject({ method: 'GET', url: backupLink })).statusCode).toBe(200);
    expect((await f.panel.app.inject({ method: 'GET', url: fileLink })).body).toBe('a');

    // A genuine S1 token naming S2's backup: the node looks only among S1's archives.
    const theirs = await bk.backUp({ as: await f.panel.bearerHeaders(f.otherOwner), on: f.s2 });
    const forged = await signedTransferUrl(f.panel.db, f.panel.nodes, {
      server: f.s1,
      user: f.owner,
      scope: 'backup-download',
      path: '/download/backup',
      claims: { backup_uuid: theirs.uuid },
      panelOrigin: 'http://localhost',
      now: f.panel.clock.now(),
    });
    const res = await f.panel.app.inject({ method: 'GET', url: nodePath(forged) });
    expect(res.statusCode).toBe(404);
    expect(res.rawPayload.includes(CANARY_S2)).toBe(false);
  });
});
