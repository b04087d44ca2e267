import { describe, expect } from 'vitest';
import { servers } from '../db/repos';
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
});
