import { describe, expect } from 'vitest';
import { test } from '../test/fixtures';
import { eventually, makeGame } from '../test/game-support';
import { sendCommand, sendPower, startBackup, type Actor, type ServerAction } from './server-actions';

/*
 * The actions without a request behind them (issue 23 §1), as a schedule takes them: they act on
 * the real demo game and write the entries a user's would, with no user as actor and the
 * schedule named.
 */

const it = test.extend('game', async ({ panel }, { onCleanup }) => {
  const game = await makeGame(panel);
  onCleanup(() => panel.daemon.process.stopAll());
  const actor: Actor = { type: 'schedule', id: 7, name: 'Nightly restart' };
  const action: ServerAction = { db: panel.db, clock: panel.clock, server: game.server, daemon: panel.nodes.local, actor };
  const entries = async () =>
    (await panel.db.selectFrom('activity_logs').select(['event', 'actor_id', 'ip', 'properties']).orderBy('id').execute()).map((r) => ({
      ...r,
      properties: JSON.parse(r.properties) as unknown,
    }));
  return { ...game, action, entries };
});

describe('server actions for a schedule', () => {
  it(
    'starts the server, sends a command and stops it, each written with the schedule as the one who acted',
    { timeout: 30_000 },
    async ({ panel, game }) => {
      await sendPower(game.action, 'start');
      await eventually(async () => panel.daemon.process.state(game.server.uuid) === 'running');
      await sendCommand(game.action, 'say from the schedule');
      await eventually(async () => (await game.history()).some((l) => l.includes('[Server] from the schedule')));
      await sendPower(game.action, 'stop');
      expect(panel.daemon.process.state(game.server.uuid)).toBe('offline');
      expect(await game.entries()).toEqual([
        { event: 'server:power.start', actor_id: null, ip: '', properties: { schedule: 'Nightly restart' } },
        { event: 'server:console.command', actor_id: null, ip: '', properties: { command: 'say from the schedule', schedule: 'Nightly restart' } },
        { event: 'server:power.stop', actor_id: null, ip: '', properties: { schedule: 'Nightly restart' } },
      ]);
    },
  );

  it('refuses a command to an offline server and writes nothing', async ({ game }) => {
    await expect(sendCommand(game.action, 'say nobody hears')).rejects.toMatchObject({ status: 502 });
    expect(await game.entries()).toEqual([]);
  });

  it('makes a complete backup, and at the limit refuses as for a user', { timeout: 30_000 }, async ({ panel, game }) => {
    await panel.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', game.server.id).execute();
    const input = { name: 'Scheduled', ignored: [], locked: false, requestedLock: false };
    const backup = await startBackup(game.action, input, { limit: 10, periodSeconds: 0 });
    await eventually(
      async () =>
        (await panel.db.selectFrom('backups').select('completed_at').where('id', '=', backup.id).executeTakeFirstOrThrow()).completed_at !== null,
    );
    const row = await panel.db.selectFrom('backups').selectAll().where('id', '=', backup.id).executeTakeFirstOrThrow();
    expect(row.is_successful).toBe(1);
    expect(row.bytes).toBeGreaterThan(0);
    await expect(startBackup(game.action, input, { limit: 10, periodSeconds: 0 })).rejects.toMatchObject({ status: 400 });
    expect((await game.entries()).filter((e) => e.event === 'server:backup.start')).toEqual([
      { event: 'server:backup.start', actor_id: null, ip: '', properties: { name: 'Scheduled', locked: false, schedule: 'Nightly restart' } },
    ]);
  });
});
