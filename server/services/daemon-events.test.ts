import { describe, expect } from 'vitest';
import { backups, servers } from '../db/repos';
import { test } from '../test/fixtures';
import { handleDaemonEvent, type DaemonEventContext } from './daemon-events';
import { setServerStatus } from './servers';

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner))
  .extend('warnings', async (): Promise<string[]> => [])
  .extend('ctx', async ({ panel, warnings }): Promise<DaemonEventContext> => ({ db: panel.db, clock: panel.clock, warn: (m) => warnings.push(m) }))
  .extend('status', async ({ panel, server }) => {
    return async () => (await servers.findById(panel.db, server.id))?.status;
  });

describe('daemon events', () => {
  it('ends an install: the status clears on success, and names which install failed otherwise', async ({ panel, server, ctx, status }) => {
    await setServerStatus(panel.db, server.uuid, 'installing', panel.clock.now());
    await handleDaemonEvent(ctx, { type: 'install.completed', server: server.uuid, successful: true, reinstall: false });
    expect(await status()).toBeNull();

    await setServerStatus(panel.db, server.uuid, 'installing', panel.clock.now());
    await handleDaemonEvent(ctx, { type: 'install.completed', server: server.uuid, successful: false, reinstall: true });
    expect(await status()).toBe('reinstall_failed');

    await setServerStatus(panel.db, server.uuid, 'installing', panel.clock.now());
    await handleDaemonEvent(ctx, { type: 'install.completed', server: server.uuid, successful: false, reinstall: false });
    expect(await status()).toBe('install_failed');
  });

  it('leaves a server that is no longer installing as it is (suspended meanwhile)', async ({ panel, server, ctx, status }) => {
    await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
    await handleDaemonEvent(ctx, { type: 'install.completed', server: server.uuid, successful: true, reinstall: false });
    expect(await status()).toBe('suspended');
  });

  it("writes what a user did on the node into the server's activity, with the user as actor", async ({ panel, owner, server, ctx }) => {
    await handleDaemonEvent(ctx, {
      type: 'activity',
      server: server.uuid,
      user: owner.uuid,
      ip: '203.0.113.9',
      event: 'server:file.uploaded',
      properties: { directory: '/plugins', file: 'a.jar' },
    });
    const rows = await panel.db.selectFrom('activity_logs').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'server:file.uploaded', actor_id: owner.id, ip: '203.0.113.9' });
    expect(JSON.parse(rows[0]?.properties ?? '')).toEqual({ directory: '/plugins', file: 'a.jar' });
  });

  it('ignores, with a warning, a report about a server the panel does not know', async ({ panel, warnings, ctx }) => {
    await handleDaemonEvent(ctx, { type: 'install.completed', server: '00000000-0000-4000-8000-000000000000', successful: true, reinstall: false });
    expect(warnings).toHaveLength(1);
    expect(await panel.db.selectFrom('activity_logs').selectAll().execute()).toHaveLength(0);
  });

  describe('backups', () => {
    const seed = (panel: { db: DaemonEventContext['db']; clock: DaemonEventContext['clock'] }, serverId: number, name = 'Nightly') =>
      backups.insert(panel.db, { uuid: crypto.randomUUID(), server_id: serverId, name, ignored_files: [], is_locked: false, now: panel.clock.now() });
    const entries = async (db: DaemonEventContext['db']) =>
      (await db.selectFrom('activity_logs').select(['event', 'properties', 'actor_id']).orderBy('id').execute()).map((r) => ({
        event: r.event,
        properties: JSON.parse(r.properties) as unknown,
        actor: r.actor_id,
      }));

    it('records a finished backup: success, checksum, size, completion time and server:backup.complete', async ({ panel, server, ctx }) => {
      const b = await seed(panel, server.id);
      panel.clock.advance(5000);
      await handleDaemonEvent(ctx, {
        type: 'backup.completed',
        server: server.uuid,
        backup: b.uuid,
        successful: true,
        checksum: 'sha1:ff',
        bytes: 42,
      });
      expect(await backups.findByUuid(panel.db, b.uuid)).toMatchObject({
        is_successful: 1,
        checksum: 'sha1:ff',
        bytes: 42,
        completed_at: '2026-03-01T12:00:05.000Z',
      });
      expect(await entries(panel.db)).toEqual([{ event: 'server:backup.complete', properties: { name: 'Nightly' }, actor: null }]);
      const subjects = await panel.db.selectFrom('activity_subjects').select(['subject_type', 'subject_id']).orderBy('subject_type').execute();
      expect(subjects).toEqual([
        { subject_type: 'backup', subject_id: b.id },
        { subject_type: 'server', subject_id: server.id },
      ]);
    });

    it('records a failed backup with server:backup.fail and no checksum or size', async ({ panel, server, ctx }) => {
      const b = await seed(panel, server.id, 'Broken');
      await handleDaemonEvent(ctx, {
        type: 'backup.completed',
        server: server.uuid,
        backup: b.uuid,
        successful: false,
        checksum: 'sha1:ff',
        bytes: 42,
      });
      expect(await backups.findByUuid(panel.db, b.uuid)).toMatchObject({
        is_successful: 0,
        checksum: null,
        bytes: 0,
        completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(await entries(panel.db)).toEqual([{ event: 'server:backup.fail', properties: { name: 'Broken' }, actor: null }]);
    });

    it("ignores, with a warning, a report on an unknown, deleted, finished or other server's backup", async ({
      panel,
      owner,
      server,
      ctx,
      warnings,
    }) => {
      const other = await panel.server(owner);
      const deleted = await seed(panel, server.id);
      await backups.softDelete(panel.db, deleted.id, panel.clock.now());
      const theirs = await seed(panel, other.id);
      const done = await seed(panel, server.id);
      await backups.finish(panel.db, server.id, done.uuid, { successful: true, checksum: 'sha1:1', bytes: 1, now: panel.clock.now() });
      for (const uuid of [crypto.randomUUID(), deleted.uuid, theirs.uuid, done.uuid]) {
        await handleDaemonEvent(ctx, { type: 'backup.completed', server: server.uuid, backup: uuid, successful: false, checksum: '', bytes: 0 });
      }
      expect(warnings).toHaveLength(4);
      expect(await backups.findByUuid(panel.db, deleted.uuid)).toMatchObject({ completed_at: null });
      expect(await backups.findByUuid(panel.db, theirs.uuid)).toMatchObject({ completed_at: null });
      expect(await backups.findByUuid(panel.db, done.uuid)).toMatchObject({ is_successful: 1, checksum: 'sha1:1' });
      expect(await entries(panel.db)).toEqual([]);
    });

    it('ends a restore: the status clears, with restore-complete or restore-failed naming the backup', async ({ panel, server, ctx, status }) => {
      const b = await seed(panel, server.id, 'Weekly');
      await setServerStatus(panel.db, server.uuid, 'restoring_backup', panel.clock.now());
      await handleDaemonEvent(ctx, { type: 'restore.completed', server: server.uuid, backup: b.uuid, successful: true });
      expect(await status()).toBeNull();
      await setServerStatus(panel.db, server.uuid, 'restoring_backup', panel.clock.now());
      await handleDaemonEvent(ctx, { type: 'restore.completed', server: server.uuid, backup: b.uuid, successful: false });
      expect(await status()).toBeNull();
      expect(await entries(panel.db)).toEqual([
        { event: 'server:backup.restore-complete', properties: { name: 'Weekly' }, actor: null },
        { event: 'server:backup.restore-failed', properties: { name: 'Weekly' }, actor: null },
      ]);
    });

    it('leaves a server that is not restoring as it is, with a warning', async ({ panel, server, ctx, status, warnings }) => {
      const b = await seed(panel, server.id);
      await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
      await handleDaemonEvent(ctx, { type: 'restore.completed', server: server.uuid, backup: b.uuid, successful: true });
      expect(await status()).toBe('suspended');
      expect(warnings).toHaveLength(1);
      expect(await entries(panel.db)).toEqual([]);
    });
  });
});
