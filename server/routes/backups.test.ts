import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { describe, expect } from 'vitest';
import { backupTokenSchema, verifyToken } from '../daemon/tokens';
import { backups, nodes, servers } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import { isoOffset } from '../lib/time';
import { handleDaemonEvent } from '../services/daemon-events';
import { settled } from '../test/backups-support';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The backups tab's API: the list and its count, create (defaults, ignored patterns, the lock
 * rule, the limit, the throttle), detail, the lock toggle, restore, delete and download; the
 * permission matrix, 404 across servers and every activity entry. The node's end of the work is
 * its own report (`handleDaemonEvent`, the real handler), so rows are finished the way a node
 * finishes them; what the API starts runs on the real local node, and the node's own refusals
 * (an archive it does not have, one still being written) are answered and undone.
 */

type Method = 'GET' | 'POST' | 'DELETE';

async function setup(panel: TestPanel) {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const headers = await panel.bearerHeaders(owner);
  const warnings: string[] = [];
  const ctx = { db: panel.db, clock: panel.clock, warn: (m: string) => warnings.push(m) };
  const urlOf = (s: ServerRow) => `/api/client/servers/${s.uuid}/backups`;
  const call = (method: Method, path = '', payload?: object, as = headers, on = server) =>
    panel.app.inject({ method, url: urlOf(on) + path, headers: as, ...(payload ? { payload } : {}) });
  /** A backup row as the create route records it, without asking the node. */
  const seed = (opts: { name?: string; locked?: boolean; on?: ServerRow; ignored?: string[] } = {}) =>
    backups.insert(panel.db, {
      uuid: crypto.randomUUID(),
      server_id: (opts.on ?? server).id,
      name: opts.name ?? 'Nightly',
      ignored_files: opts.ignored ?? [],
      is_locked: opts.locked ?? false,
      now: panel.clock.now(),
    });
  const row = async (uuid: string) => {
    const backup = await backups.findByUuid(panel.db, uuid);
    if (!backup) throw new Error(`no backup ${uuid}`);
    return backup;
  };
  /** The node's report that a backup ended. */
  const finish = (uuid: string, successful = true, on = server) =>
    handleDaemonEvent(ctx, { type: 'backup.completed', server: on.uuid, backup: uuid, successful, checksum: 'sha1:abc', bytes: 1234 });
  const seedDone = async (opts: Parameters<typeof seed>[0] & { successful?: boolean } = {}) => {
    const b = await seed(opts);
    await finish(b.uuid, opts.successful ?? true, opts.on ?? server);
    return row(b.uuid);
  };
  const lastRow = async () => (await panel.db.selectFrom('backups').select('uuid').orderBy('id', 'desc').executeTakeFirstOrThrow()).uuid;
  const status = async () => (await servers.findById(panel.db, server.id))?.status;
  const setLimit = (limit: number | null) => panel.db.updateTable('servers').set({ backup_limit: limit }).where('id', '=', server.id).execute();
  /** The server's backup entries: event, properties, actor and subject types. */
  const events = async () => {
    const rows = await panel.db
      .selectFrom('activity_logs')
      .select(['id', 'event', 'properties', 'actor_id'])
      .where('event', 'like', 'server:backup.%')
      .orderBy('id')
      .execute();
    const subjects = await panel.db.selectFrom('activity_subjects').selectAll().execute();
    return rows.map((r) => ({
      event: r.event,
      properties: JSON.parse(r.properties) as unknown,
      actor: r.actor_id,
      subjects: subjects
        .filter((s) => s.activity_log_id === r.id)
        .map((s) => `${s.subject_type}:${s.subject_id}`)
        .sort(),
    }));
  };
  return { panel, owner, server, headers, warnings, ctx, call, seed, finish, seedDone, row, lastRow, status, setLimit, events };
}

const it = test.extend('bk', async ({ panel }) => setup(panel));

async function subuserHeaders(
  panel: TestPanel,
  server: ServerRow,
  permissions: string[],
): Promise<{ user: UserRow; headers: Record<string, string> }> {
  const user = await panel.user();
  await panel.subuser(server, user, permissions);
  return { user, headers: await panel.bearerHeaders(user) };
}

describe('backup list and detail', () => {
  it('lists the backups with the resource shape, pages of 20 (at most 50), and counts those not failed', async ({ panel, bk }) => {
    const done = await bk.seedDone({ name: 'Done', ignored: ['*.log'] });
    await bk.seedDone({ name: 'Failed', successful: false });
    const running = await bk.seed({ name: 'Running', locked: true });
    const deleted = await bk.seedDone({ name: 'Deleted' });
    await backups.softDelete(panel.db, deleted.id, panel.clock.now());

    const res = await bk.call('GET');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(['Done', 'Failed', 'Running']);
    expect(body.data[0]).toEqual({
      object: 'backup',
      attributes: {
        uuid: done.uuid,
        is_successful: true,
        is_locked: false,
        name: 'Done',
        ignored_files: ['*.log'],
        checksum: 'sha1:abc',
        bytes: 1234,
        created_at: '2026-03-01T12:00:00+00:00',
        completed_at: '2026-03-01T12:00:00+00:00',
      },
    });
    expect(body.data[2].attributes).toMatchObject({
      uuid: running.uuid,
      is_successful: false,
      is_locked: true,
      checksum: null,
      bytes: 0,
      completed_at: null,
    });
    expect(body.meta).toEqual({
      backup_count: 2,
      // Done, Running and the deleted one started in the window: the next may start once the newest leaves it.
      backup_throttle: { limit: 2, period: 600, available_at: '2026-03-01T12:10:00+00:00' },
      pagination: { total: 3, count: 3, per_page: 20, current_page: 1, total_pages: 1, links: {} },
    });

    for (let i = 0; i < 52; i += 1) await bk.seed({ name: `b${i}` });
    const page = (await bk.call('GET', '?per_page=50&page=2')).json();
    expect(page.data).toHaveLength(5);
    expect(page.meta.pagination).toMatchObject({ total: 55, count: 5, per_page: 50, current_page: 2, total_pages: 2 });
    expect((await bk.call('GET')).json().meta.pagination).toMatchObject({ per_page: 20, count: 20 });
    expect((await bk.call('GET', '?per_page=51')).statusCode).toBe(422);
  });

  it('answers one backup by uuid; a deleted one, a missing one and a non-uuid are 404', async ({ panel, bk }) => {
    const done = await bk.seedDone();
    const res = await bk.call('GET', `/${done.uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object: 'backup', attributes: { uuid: done.uuid, is_successful: true } });
    expect((await bk.call('GET', `/${done.uuid.toUpperCase()}`)).statusCode).toBe(200);
    await backups.softDelete(panel.db, done.id, panel.clock.now());
    expect((await bk.call('GET', `/${done.uuid}`)).statusCode).toBe(404);
    expect((await bk.call('GET', `/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await bk.call('GET', '/not-a-uuid')).statusCode).toBe(404);
  });
});

describe('creating a backup', () => {
  it('names it "Backup at <time>" by default, splits ignored on new lines and drops blank lines', async ({ panel, bk }) => {
    const res = await bk.call('POST', '', { name: '  ', ignored: '*.log\n\n  cache/ \r\n\nworld/session.lock\n' });
    const stored = await bk.row(await bk.lastRow());
    expect(stored).toMatchObject({ name: 'Backup at 2026-03-01 12:00:00', ignored_files: ['*.log', 'cache/', 'world/session.lock'], is_locked: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      object: 'backup',
      attributes: {
        uuid: stored.uuid,
        name: stored.name,
        is_successful: false,
        completed_at: null,
        checksum: null,
        ignored_files: stored.ignored_files,
      },
    });
    await settled(panel, stored.uuid);
    const named = await bk.call('POST', '', { name: ' Before update ' });
    expect((await bk.row(await bk.lastRow())).name).toBe('Before update');
    await settled(panel, (named.json() as { attributes: { uuid: string } }).attributes.uuid);
  });

  it('locks a new backup only for a caller who may delete backups; the entry records the lock asked for', async ({ panel, bk }) => {
    const { headers: creator } = await subuserHeaders(panel, bk.server, ['backup.create']);
    await bk.call('POST', '', { name: 'asked', is_locked: true }, creator);
    const asked = await bk.row(await bk.lastRow());
    expect(asked.is_locked).toBe(0);
    const { headers: deleter } = await subuserHeaders(panel, bk.server, ['backup.create', 'backup.delete']);
    await bk.setLimit(5);
    await bk.call('POST', '', { name: 'granted', is_locked: true }, deleter);
    const granted = await bk.row(await bk.lastRow());
    expect(granted.is_locked).toBe(1);
    const starts = (await bk.events()).filter((e) => e.event === 'server:backup.start');
    expect(starts.map((e) => e.properties)).toEqual([
      { name: 'asked', locked: true },
      { name: 'granted', locked: true },
    ]);
    await settled(panel, asked.uuid);
    await settled(panel, granted.uuid);
  });

  it("refuses at the server's limit with TooManyBackupsException (failed backups not counted), and always at a limit of 0", async ({ panel, bk }) => {
    await bk.setLimit(2);
    await bk.seedDone();
    await bk.seed();
    await bk.seedDone({ successful: false });
    panel.clock.advance(601_000); // past the throttle's window
    const full = await bk.call('POST', '', { name: 'one too many' });
    expect(full.statusCode).toBe(400);
    expect(full.json().errors[0]).toEqual({
      code: 'TooManyBackupsException',
      status: '400',
      detail: 'Cannot create a new backup, this server has reached its limit of 2 backups.',
    });
    await bk.setLimit(0);
    const disabled = await bk.call('POST', '');
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json().errors[0].detail).toBe('Cannot create a new backup, this server has reached its limit of 0 backups.');
    await bk.setLimit(null);
    expect((await bk.call('POST', '')).statusCode).toBe(400);
    expect(await backups.countNotFailed(bk.ctx.db, bk.server.id)).toBe(2);
    expect((await bk.events()).filter((e) => e.event === 'server:backup.start')).toEqual([]);
  });

  it('throttles to 2 started in 600 seconds (deleted ones counted, failed ones not) with 429 and Retry-After', async ({ panel, bk }) => {
    await bk.setLimit(10);
    await bk.seedDone({ successful: false });
    const first = await bk.seedDone();
    panel.clock.advance(100_000);
    await bk.seed();
    await backups.softDelete(panel.db, first.id, panel.clock.now());
    panel.clock.advance(50_000);
    const res = await bk.call('POST', '', { name: 'third' });
    expect(res.statusCode).toBe(429);
    // The newest of the two leaves the window 550 s from now.
    expect(res.headers['retry-after']).toBe('550');
    // The list says so before anyone asks (issue 22 polish): the counter alone (1 of 10) would not.
    const listed = (await bk.call('GET')).json().meta;
    expect(listed.backup_count).toBe(1);
    expect(listed.backup_throttle).toEqual({ limit: 2, period: 600, available_at: isoOffset(new Date(panel.clock.now().getTime() + 550_000)) });
    expect(res.json().errors[0]).toEqual({
      code: 'TooManyRequestsHttpException',
      status: '429',
      detail: 'Only 2 backups may be generated within a 600 second span of time.',
    });
    panel.clock.advance(451_000); // the first one has left the window
    expect((await bk.call('GET')).json().meta.backup_throttle).toEqual({ limit: 2, period: 600, available_at: null });
    const after = await bk.call('POST', '', { name: 'third' });
    expect(after.statusCode).toBe(200);
    await settled(panel, await bk.lastRow());
  });

  it('follows BACKUP_THROTTLE_LIMIT and BACKUP_THROTTLE_PERIOD; a period of 0 turns the throttle off', async ({ makePanel }) => {
    const one = await setup(await makePanel({ backupThrottle: { limit: 1, periodSeconds: 60 } }));
    await one.setLimit(10);
    await one.seed();
    const res = await one.call('POST', '');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.json().errors[0].detail).toBe('Only 1 backups may be generated within a 60 second span of time.');

    const off = await setup(await makePanel({ backupThrottle: { limit: 1, periodSeconds: 0 } }));
    await off.setLimit(10);
    for (let i = 0; i < 5; i += 1) await off.seed();
    expect((await off.call('GET')).json().meta).not.toHaveProperty('backup_throttle');
    const unthrottled = await off.call('POST', '');
    expect(unthrottled.statusCode).toBe(200);
    await settled(off.panel, await off.lastRow());
  });

  it('never passes the limit under parallel creates', async ({ makePanel }) => {
    const bk = await setup(await makePanel({ backupThrottle: { limit: 2, periodSeconds: 0 } }));
    await bk.setLimit(2);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => bk.call('POST', '', { name: `p${i}` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 200)) await settled(bk.panel, r.json().attributes.uuid);
    expect(await bk.ctx.db.selectFrom('backups').selectAll().execute()).toHaveLength(2);
  });

  it('rejects a name over 191 characters with 422 and records nothing', async ({ panel, bk }) => {
    const res = await bk.call('POST', '', { name: 'x'.repeat(192) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].meta.source_field).toBe('name');
    expect(await panel.db.selectFrom('backups').selectAll().execute()).toEqual([]);
  });
});

describe('locking a backup', () => {
  it('toggles the lock and writes lock then unlock, with the backup as subject', async ({ bk }) => {
    const b = await bk.seedDone({ name: 'Keep' });
    const locked = await bk.call('POST', `/${b.uuid}/lock`);
    expect(locked.statusCode).toBe(200);
    expect(locked.json()).toMatchObject({ object: 'backup', attributes: { uuid: b.uuid, is_locked: true } });
    const unlocked = await bk.call('POST', `/${b.uuid}/lock`);
    expect(unlocked.json().attributes.is_locked).toBe(false);
    expect(await bk.events()).toEqual([
      expect.objectContaining({ event: 'server:backup.complete' }),
      { event: 'server:backup.lock', properties: { name: 'Keep' }, actor: bk.owner.id, subjects: [`backup:${b.id}`, `server:${bk.server.id}`] },
      { event: 'server:backup.unlock', properties: { name: 'Keep' }, actor: bk.owner.id, subjects: [`backup:${b.id}`, `server:${bk.server.id}`] },
    ]);
  });
  it('flips the lock once per request when two arrive together', async ({ bk }) => {
    const b = await bk.seedDone();
    const both = await Promise.all([bk.call('POST', `/${b.uuid}/lock`), bk.call('POST', `/${b.uuid}/lock`)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await bk.row(b.uuid)).is_locked).toBe(0);
    const toggles = (await bk.events()).filter((e) => e.event !== 'server:backup.complete').map((e) => e.event);
    expect(toggles.sort()).toEqual(['server:backup.lock', 'server:backup.unlock']);
  });
});

describe('restoring a backup', () => {
  it('requires truncate as a boolean (422 naming truncate)', async ({ bk }) => {
    const b = await bk.seedDone();
    for (const payload of [{}, { truncate: 'yes' }, { truncate: null }]) {
      const res = await bk.call('POST', `/${b.uuid}/restore`, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ source: { field: 'truncate' }, meta: { source_field: 'truncate' } });
    }
    expect(await bk.status()).toBeNull();
  });

  it('refuses a backup still running, and a server in another state (400), changing nothing', async ({ panel, bk }) => {
    const running = await bk.seed();
    const res = await bk.call('POST', `/${running.uuid}/restore`, { truncate: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].detail).toBe('This backup cannot be restored at this time: not completed or failed.');

    const done = await bk.seedDone();
    await servers.setStatus(panel.db, bk.server.id, 'reinstall_failed', panel.clock.now());
    const wrongState = await bk.call('POST', `/${done.uuid}/restore`, { truncate: true });
    expect(wrongState.statusCode).toBe(400);
    expect(wrongState.json().errors[0].detail).toBe('This server is not currently in a state that allows for a backup to be restored.');
    expect(await bk.status()).toBe('reinstall_failed');
    expect((await bk.events()).filter((e) => e.event === 'server:backup.restore')).toEqual([]);
  });

  it('puts the status back, and says the restore failed, when the node refuses to start it', async ({ panel, bk }) => {
    // A row the node has no archive for (`seedDone` asks it nothing): its `not_found`.
    const done = await bk.seedDone();
    const before = fs.readdirSync(panel.daemon.volumePath(bk.server.uuid));
    const res = await bk.call('POST', `/${done.uuid}/restore`, { truncate: true });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NotFoundHttpException');
    expect(await bk.status()).toBeNull();
    expect(fs.readdirSync(panel.daemon.volumePath(bk.server.uuid))).toEqual(before);
    expect(await bk.row(done.uuid)).toMatchObject({ is_successful: 1, deleted_at: null });
    const subjects = [`backup:${done.id}`, `server:${bk.server.id}`];
    expect((await bk.events()).slice(1)).toEqual([
      { event: 'server:backup.restore', properties: { name: 'Nightly', truncate: true }, actor: bk.owner.id, subjects },
      { event: 'server:backup.restore-failed', properties: { name: 'Nightly' }, actor: null, subjects },
    ]);
    // Nothing holds the server: it may restore again at once.
    expect((await bk.call('POST', `/${done.uuid}/restore`, { truncate: false })).statusCode).toBe(404);
  });

  it("restores through the node: held until the node reports the end, then the backup's files are back", async ({ panel, bk }) => {
    const write = (file: string, payload: string) =>
      panel.app.inject({ method: 'POST', url: `/api/client/servers/${bk.server.uuid}/files/write?file=${file}`, headers: bk.headers, payload });
    expect((await write('/kept.txt', 'from the backup')).statusCode).toBe(204);
    const created = await bk.call('POST', '', { name: 'To restore' });
    const backup = await settled(panel, created.json().attributes.uuid);
    expect(backup.is_successful).toBe(1);
    expect((await write('/kept.txt', 'changed since')).statusCode).toBe(204);
    expect((await write('/newer.txt', 'not in the backup')).statusCode).toBe(204);
    const res = await bk.call('POST', `/${backup.uuid}/restore`, { truncate: true });
    expect(res.statusCode).toBe(204);
    // The node reports the end on its own; until then the server is held (or it already ended).
    for (let i = 0; i < 400 && (await bk.status()) === 'restoring_backup'; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await bk.status()).toBeNull();
    const read = (file: string) =>
      panel.app.inject({ method: 'GET', url: `/api/client/servers/${bk.server.uuid}/files/contents?file=${file}`, headers: bk.headers });
    expect((await read('/kept.txt')).body).toBe('from the backup');
    expect((await read('/newer.txt')).statusCode).toBe(404);
    const subjects = [`backup:${backup.id}`, `server:${bk.server.id}`];
    expect(await bk.events()).toEqual([
      { event: 'server:backup.start', properties: { name: 'To restore', locked: false }, actor: bk.owner.id, subjects },
      { event: 'server:backup.complete', properties: { name: 'To restore' }, actor: null, subjects },
      { event: 'server:backup.restore', properties: { name: 'To restore', truncate: true }, actor: bk.owner.id, subjects },
      { event: 'server:backup.restore-complete', properties: { name: 'To restore' }, actor: null, subjects },
    ]);
  });

  it('while restoring, every server route answers 409 and restore.completed clears it with its entry', async ({ panel, bk }) => {
    const done = await bk.seedDone({ name: 'Weekly' });
    // What the restore route does before asking the node (the node's own acceptance is tested above).
    await servers.setStatusFrom(panel.db, bk.server.id, null, 'restoring_backup', panel.clock.now());
    for (const [method, path] of [
      ['GET', ''],
      ['GET', `/${done.uuid}`],
      ['POST', `/${done.uuid}/restore`],
      ['DELETE', `/${done.uuid}`],
    ] as const) {
      const res = await bk.call(method, path, method === 'POST' ? { truncate: false } : undefined);
      expect(res.statusCode).toBe(409);
      expect(res.json().errors[0]).toMatchObject({
        code: 'ServerStateConflictException',
        detail: expect.stringContaining('restoring from a backup'),
      });
    }
    const files = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${bk.server.uuid}/files/list?directory=/`, headers: bk.headers });
    expect(files.statusCode).toBe(409);
    await handleDaemonEvent(bk.ctx, { type: 'restore.completed', server: bk.server.uuid, backup: done.uuid, successful: true });
    expect(await bk.status()).toBeNull();
    expect((await bk.call('GET')).statusCode).toBe(200);
    expect((await bk.events()).at(-1)).toEqual({
      event: 'server:backup.restore-complete',
      properties: { name: 'Weekly' },
      actor: null,
      subjects: [`backup:${done.id}`, `server:${bk.server.id}`],
    });
  });
});

describe('deleting a backup', () => {
  it('refuses a locked backup that completed successfully, changing nothing', async ({ bk }) => {
    const b = await bk.seedDone({ locked: true });
    const res = await bk.call('DELETE', `/${b.uuid}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toEqual({
      code: 'BackupLockedException',
      status: '400',
      detail: 'Cannot delete a backup that is marked as locked.',
    });
    expect((await bk.row(b.uuid)).deleted_at).toBeNull();
    expect((await bk.events()).filter((e) => e.event === 'server:backup.delete')).toEqual([]);
  });

  it('deletes a failed locked backup (soft: kept for the throttle), then answers 404', async ({ panel, bk }) => {
    const failed = await bk.seedDone({ locked: true, successful: false, name: 'Broken' });
    const res = await bk.call('DELETE', `/${failed.uuid}`);
    expect(res.statusCode).toBe(204);
    expect((await bk.row(failed.uuid)).deleted_at).toBe(panel.clock.now().toISOString());
    expect((await bk.call('DELETE', `/${failed.uuid}`)).statusCode).toBe(404);
    expect((await bk.call('GET', `/${failed.uuid}`)).statusCode).toBe(404);
    expect((await bk.call('GET')).json().data).toEqual([]);
    expect((await bk.events()).at(-1)).toEqual({
      event: 'server:backup.delete',
      properties: { name: 'Broken', failed: true },
      actor: bk.owner.id,
      subjects: [`backup:${failed.id}`, `server:${bk.server.id}`],
    });
  });

  it('deletes a backup the API made, its archive with it', async ({ panel, bk }) => {
    const created = await bk.call('POST', '', { name: 'Gone' });
    const backup = await settled(panel, created.json().attributes.uuid);
    expect((await bk.call('DELETE', `/${backup.uuid}`)).statusCode).toBe(204);
    expect((await bk.events()).at(-1)?.properties).toEqual({ name: 'Gone', failed: false });
  });

  it('deletes once when two deletes arrive together: one 204, one 404, one entry', async ({ bk }) => {
    const b = await bk.seedDone({ successful: false });
    const both = await Promise.all([bk.call('DELETE', `/${b.uuid}`), bk.call('DELETE', `/${b.uuid}`)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([204, 404]);
    expect((await bk.events()).filter((e) => e.event === 'server:backup.delete')).toHaveLength(1);
  });

  it('answers the refusal and keeps the row when the node cannot delete the archive (still being written)', async ({ panel, bk }) => {
    // Incompressible, so the node is still writing the archive when the delete arrives.
    fs.writeFileSync(path.join(panel.daemon.volumePath(bk.server.uuid), 'big.bin'), randomBytes(16 * 1024 * 1024));
    const created = await bk.call('POST', '', { name: 'Busy' });
    expect(created.statusCode).toBe(200);
    const uuid = (created.json() as { attributes: { uuid: string } }).attributes.uuid;
    const res = await bk.call('DELETE', `/${uuid}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].detail).toBe('This backup is being written or restored.');
    expect((await bk.row(uuid)).deleted_at).toBeNull();
    expect((await bk.events()).filter((e) => e.event === 'server:backup.delete')).toEqual([]);
    // The backup completes regardless, and may be deleted then, archive and all.
    expect((await settled(panel, uuid)).is_successful).toBe(1);
    expect((await bk.call('DELETE', `/${uuid}`)).statusCode).toBe(204);
    expect(fs.existsSync(path.join(panel.dataDir, 'backups', bk.server.uuid, `${uuid}.tar.gz`))).toBe(false);
  });
});

describe('downloading a backup', () => {
  it('refuses a backup that is running or failed (400)', async ({ bk }) => {
    for (const b of [await bk.seed(), await bk.seedDone({ successful: false })]) {
      const res = await bk.call('GET', `/${b.uuid}/download`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].code).toBe('BadRequestHttpException');
    }
    expect((await bk.events()).filter((e) => e.event === 'server:backup.download')).toEqual([]);
  });

  it('signs a 15-minute backup_download link to the node for a successful one, naming the backup and the caller', async ({ panel, bk }) => {
    const b = await bk.seedDone({ name: 'Take' });
    const res = await bk.call('GET', `/${b.uuid}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.url).toMatch(/^http:\/\/localhost:80\/download\/backup\?token=[^&]+$/);
    const url = new URL(res.json().attributes.url as string);
    const token = url.searchParams.get('token') ?? '';
    const claims = await verifyToken(
      token,
      panel.nodes.tokenOf((await nodes.first(panel.db)) ?? { daemon_token: '' }),
      backupTokenSchema,
      panel.clock.now(),
    );
    expect(claims).toMatchObject({ scope: 'backup-download', server_uuid: bk.server.uuid, backup_uuid: b.uuid, user_uuid: bk.owner.uuid });
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number; exp: number };
    expect(payload.exp - payload.iat).toBe(15 * 60);
    expect(await verifyToken(token, 'another key', backupTokenSchema, panel.clock.now())).toBeNull();
    expect((await bk.events()).at(-1)).toEqual({
      event: 'server:backup.download',
      properties: { name: 'Take' },
      actor: bk.owner.id,
      subjects: [`backup:${b.id}`, `server:${bk.server.id}`],
    });
  });
  it("serves through the signed link the node's archive, minus the ignored files, with the checksum and size recorded", async ({ panel, bk }) => {
    for (const [file, content] of [
      ['/world.dat', 'level data'],
      ['/logs/latest.log', 'log lines'],
      ['/cache/blob', 'cached'],
    ]) {
      const write = await panel.app.inject({
        method: 'POST',
        url: `/api/client/servers/${bk.server.uuid}/files/write?file=${file}`,
        headers: bk.headers,
        payload: content,
      });
      expect(write.statusCode).toBe(204);
    }
    // The patterns go from the API to the node: what they match is not in the archive.
    const created = await bk.call('POST', '', { name: 'Fetch', ignored: '*.log\ncache/' });
    const backup = await settled(panel, created.json().attributes.uuid);
    const link = new URL((await bk.call('GET', `/${backup.uuid}/download`)).json().attributes.url as string);
    const archive = await panel.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(archive.statusCode).toBe(200);
    expect(archive.rawPayload.length).toBe(backup.bytes);
    expect(`sha1:${createHash('sha1').update(archive.rawPayload).digest('hex')}`).toBe(backup.checksum);
    const members = new Map<string, string>();
    await new Promise<void>((resolve, reject) => {
      const list = tar.t({
        onReadEntry: (entry) => {
          const chunks: Buffer[] = [];
          entry.on('data', (c: Buffer) => chunks.push(c));
          entry.on('end', () => members.set(entry.path, Buffer.concat(chunks).toString('utf8')));
        },
      });
      list.on('end', resolve).on('error', reject);
      list.end(archive.rawPayload);
    });
    expect([...members.keys()].sort()).toEqual(['logs/', 'world.dat']);
    expect(members.get('world.dat')).toBe('level data');
    // Used once.
    expect((await panel.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).statusCode).toBe(403);
  });
});

describe('backup access', () => {
  it('checks each endpoint for its permission: 403 without it, through with it', async ({ panel, bk }) => {
    await bk.setLimit(10);
    const locked = await bk.seedDone({ locked: true });
    const cases: { method: Method; path: string; permission: string; payload?: object; through: number }[] = [
      { method: 'GET', path: '', permission: 'backup.read', through: 200 },
      { method: 'GET', path: `/${locked.uuid}`, permission: 'backup.read', through: 200 },
      // A body the contract refuses: 422 comes only after the permission check.
      { method: 'POST', path: '', permission: 'backup.create', payload: { name: 5 }, through: 422 },
      { method: 'POST', path: `/${locked.uuid}/lock`, permission: 'backup.delete', through: 200 },
      { method: 'POST', path: `/${locked.uuid}/restore`, permission: 'backup.restore', payload: {}, through: 422 },
      { method: 'DELETE', path: `/${locked.uuid}`, permission: 'backup.delete', through: 400 },
      { method: 'GET', path: `/${locked.uuid}/download`, permission: 'backup.download', through: 200 },
    ];
    const others = ['backup.create', 'backup.read', 'backup.delete', 'backup.download', 'backup.restore'];
    for (const c of cases) {
      const without = await subuserHeaders(
        panel,
        bk.server,
        others.filter((p) => p !== c.permission),
      );
      const refused = await bk.call(c.method, c.path, c.payload, without.headers);
      expect(refused.statusCode, `${c.method} ${c.path} without ${c.permission}`).toBe(403);
      const withIt = await subuserHeaders(panel, bk.server, [c.permission]);
      const res = await bk.call(c.method, c.path, c.payload, withIt.headers);
      expect(res.statusCode, `${c.method} ${c.path} with ${c.permission}`).toBe(c.through);
      // The lock toggled: put it back for the next case.
      if (c.path.endsWith('/lock')) await bk.call('POST', c.path);
    }
    // A stranger gets 404 for each, never 403.
    const stranger = await panel.bearerHeaders(await panel.user());
    for (const c of cases) expect((await bk.call(c.method, c.path, c.payload, stranger)).statusCode).toBe(404);
  });

  it("answers 404 for another server's backup on every backup route, and changes nothing", async ({ panel, bk }) => {
    const other = await panel.server(bk.owner);
    const theirs = await bk.seedDone({ on: other });
    for (const [method, path, payload] of [
      ['GET', `/${theirs.uuid}`],
      ['POST', `/${theirs.uuid}/lock`],
      ['POST', `/${theirs.uuid}/restore`, { truncate: true }],
      ['DELETE', `/${theirs.uuid}`],
      ['GET', `/${theirs.uuid}/download`],
    ] as const) {
      const res = await bk.call(method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().errors[0].code).toBe('NotFoundHttpException');
    }
    expect(await bk.row(theirs.uuid)).toMatchObject({ is_locked: 0, deleted_at: null });
    expect(await bk.status()).toBeNull();
    expect((await bk.events()).map((e) => e.event)).toEqual(['server:backup.complete']);
  });
});
