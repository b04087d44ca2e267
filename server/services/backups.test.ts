import { describe, expect } from 'vitest';
import { backups, servers } from '../db/repos';
import { test } from '../test/fixtures';
import { logActivity } from './activity';
import { backupEvent, defaultBackupName, failInterruptedBackupWork, ignoredPatterns } from './backups';

const it = test.extend('owner', async ({ panel }) => panel.user()).extend('server', async ({ panel, owner }) => panel.server(owner));

describe('backup rules', () => {
  it('names a backup by its start time and reads ignored patterns one a line', () => {
    expect(defaultBackupName(new Date('2026-03-01T09:05:07.123Z'))).toBe('Backup at 2026-03-01 09:05:07');
    expect(ignoredPatterns('a\r\n\n  \n b/ \n')).toEqual(['a', 'b/']);
    expect(ignoredPatterns(null)).toEqual([]);
  });
});

describe('work a crash or restart cut off', () => {
  it('marks every running backup failed and ends every restore, each with its entry; finished backups stay', async ({ panel, owner, server }) => {
    const seed = (serverId: number, name: string) =>
      backups.insert(panel.db, { uuid: crypto.randomUUID(), server_id: serverId, name, ignored_files: [], is_locked: false, now: panel.clock.now() });
    const other = await panel.server(owner);
    const cut = await seed(server.id, 'Cut off');
    const cutOther = await seed(other.id, 'Also cut off');
    const done = await seed(server.id, 'Done');
    await backups.finish(panel.db, server.id, done.uuid, { successful: true, checksum: 'sha1:1', bytes: 10, now: panel.clock.now() });
    const deleted = await seed(server.id, 'Deleted');
    await backups.softDelete(panel.db, deleted.id, panel.clock.now());
    // A restore of `done` was running on `server` when the panel stopped.
    await servers.setStatus(panel.db, server.id, 'restoring_backup', panel.clock.now());
    await logActivity(panel.db, {
      ...backupEvent(server, done, 'server:backup.restore', { name: 'Done', truncate: false }, panel.clock.now()),
      actorId: owner.id,
    });
    await servers.setStatus(panel.db, other.id, 'suspended', panel.clock.now());
    await panel.db.deleteFrom('activity_logs').where('event', '!=', 'server:backup.restore').execute();

    panel.clock.advance(60_000);
    expect(await failInterruptedBackupWork(panel.db, panel.clock.now())).toEqual({ backups: 2, restores: 1 });

    const at = panel.clock.now().toISOString();
    expect(await backups.findByUuid(panel.db, cut.uuid)).toMatchObject({ is_successful: 0, completed_at: at, checksum: null });
    expect(await backups.findByUuid(panel.db, cutOther.uuid)).toMatchObject({ is_successful: 0, completed_at: at });
    expect(await backups.findByUuid(panel.db, done.uuid)).toMatchObject({ is_successful: 1, checksum: 'sha1:1' });
    expect(await backups.findByUuid(panel.db, deleted.uuid)).toMatchObject({ completed_at: null });
    expect((await servers.findById(panel.db, server.id))?.status).toBeNull();
    expect((await servers.findById(panel.db, other.id))?.status).toBe('suspended');
    const entries = await panel.db.selectFrom('activity_logs').select(['event', 'properties', 'actor_id']).orderBy('id').execute();
    expect(entries.map((e) => [e.event, JSON.parse(e.properties), e.actor_id])).toEqual([
      ['server:backup.restore', { name: 'Done', truncate: false }, owner.id],
      ['server:backup.fail', { name: 'Cut off' }, null],
      ['server:backup.fail', { name: 'Also cut off' }, null],
      ['server:backup.restore-failed', { name: 'Done' }, null],
    ]);

    // A second start finds nothing left to end.
    expect(await failInterruptedBackupWork(panel.db, panel.clock.now())).toEqual({ backups: 0, restores: 0 });
  });

  it("leaves a remote node's running backups and restores to that node", async ({ panel, owner }) => {
    const remote = await panel.server(owner);
    const node = await panel.db
      .insertInto('nodes')
      .values({
        uuid: '5f0b2a4c-2f4e-4f7b-8d7a-0c2d9a6b1e13',
        name: 'node-eu-3',
        fqdn: 'node3.example.com',
        sftp_port: 2022,
        maintenance_mode: 0,
        daemon_base_url: 'https://node3.example.com:8080',
        daemon_token: 'remote-node-key',
        daemon_token_id: 'remotenodeid0001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await panel.db.updateTable('servers').set({ node_id: node.id, status: 'restoring_backup' }).where('id', '=', remote.id).execute();
    const running = await backups.insert(panel.db, {
      uuid: crypto.randomUUID(),
      server_id: remote.id,
      name: 'On the node',
      ignored_files: [],
      is_locked: false,
      now: panel.clock.now(),
    });
    expect(await failInterruptedBackupWork(panel.db, panel.clock.now())).toEqual({ backups: 0, restores: 0 });
    expect(await backups.findByUuid(panel.db, running.uuid)).toMatchObject({ completed_at: null });
    expect((await servers.findById(panel.db, remote.id))?.status).toBe('restoring_backup');
  });
});
