import { describe, expect } from 'vitest';
import { schedules } from '../db/repos';
import { test } from '../test/fixtures';
import { eventually, makeGame } from '../test/game-support';
import { Scheduler } from './scheduler';

/*
 * The scheduler (issue 23 §3) with the panel's movable clock and offsets that pass at once: due
 * and not due, offsets, continue-on-failure both ways, only-when-online, inactive, an interrupted
 * chain and missed runs after a restart; and tasks acting for real on the running demo game.
 */

const DAILY = { name: 'Nightly', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true };

const it = test.extend('sched', async ({ panel }, { onCleanup }) => {
  const game = await makeGame(panel);
  onCleanup(() => panel.daemon.process.stopAll());
  const headers = await panel.bearerHeaders(game.owner);
  const base = `/api/client/servers/${game.server.uuid}/schedules`;
  const post = (url: string, payload: unknown) => panel.app.inject({ method: 'POST', url: `${base}${url}`, headers, payload: payload as object });
  const slept: number[] = [];
  const scheduler = new Scheduler({
    db: panel.db,
    clock: panel.clock,
    nodes: panel.nodes,
    config: panel.config,
    sleep: async (ms) => void slept.push(ms),
  });
  const make = async (body: Record<string, unknown>, tasks: Record<string, unknown>[]) => {
    const id = (await post('', { ...DAILY, ...body })).json().attributes.id as number;
    for (const task of tasks) expect((await post(`/${id}/tasks`, { time_offset: 0, ...task })).statusCode).toBe(200);
    return id;
  };
  const settle = async () => {
    while (scheduler.inFlight.size > 0) await Promise.all([...scheduler.inFlight]);
  };
  const runs = async (id: number) =>
    (await schedules.recentRuns(panel.db, id, 10)).map((r) => ({ ...r, tasks: JSON.parse(r.tasks) as { outcome: string; reason: string | null }[] }));
  const start = async () => {
    await panel.daemon.process.power(game.server.uuid, 'start');
    await eventually(() => panel.daemon.process.state(game.server.uuid) === 'running');
  };
  return { ...game, scheduler, make, settle, runs, slept, start, post };
});

describe('the scheduler', () => {
  it('runs a due schedule once, at its time and not before, and moves its next run on', { timeout: 30_000 }, async ({ panel, sched }) => {
    await sched.start();
    const id = await sched.make({}, [{ action: 'command', payload: 'say good morning' }]);
    // Created at 12:00 UTC: due at 04:00 the next day (the test panel's zone).
    const row = await schedules.findById(panel.db, id);
    const due = new Date(row?.next_run_at ?? '');
    panel.clock.set(new Date(due.getTime() - 1000));
    expect(await sched.scheduler.tick()).toBe(0);
    panel.clock.set(due);
    expect(await sched.scheduler.tick()).toBe(1);
    expect(await sched.scheduler.tick()).toBe(0); // claimed: not twice
    await sched.settle();
    await eventually(async () => (await sched.history()).some((l) => l.includes('[Server] good morning')));
    const after = await schedules.findById(panel.db, id);
    expect(after).toMatchObject({
      is_processing: 0,
      last_run_at: due.toISOString(),
      next_run_at: new Date(due.getTime() + 86_400_000).toISOString(),
    });
    expect((await sched.runs(id))[0]).toMatchObject({ trigger: 'cron', outcome: 'done', tasks: [{ outcome: 'done', reason: null }] });
    const entries = await panel.db.selectFrom('activity_logs').select(['event', 'actor_id', 'properties']).orderBy('id').execute();
    expect(
      entries
        .filter((e) => e.event !== 'server:schedule.create' && e.event !== 'server:task.create')
        .map((e) => [e.event, e.actor_id, JSON.parse(e.properties)]),
    ).toEqual([
      ['server:schedule.execute', null, { name: 'Nightly', trigger: 'cron', schedule: 'Nightly' }],
      ['server:console.command', null, { command: 'say good morning', schedule: 'Nightly' }],
    ]);
  });

  it('waits out each offset, and a failed task stops the chain unless it continues on failure', { timeout: 30_000 }, async ({ panel, sched }) => {
    // The server is offline: commands fail.
    const stops = await sched.make({ name: 'Stops' }, [
      { action: 'command', payload: 'say one', time_offset: 5 },
      { action: 'command', payload: 'say two', time_offset: 7 },
    ]);
    const goes = await sched.make({ name: 'Goes on' }, [
      { action: 'command', payload: 'say one', time_offset: 5, continue_on_failure: true },
      { action: 'backup', payload: '*.log', time_offset: 7 },
    ]);
    await panel.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', sched.server.id).execute();
    panel.clock.advance(86_400_000);
    expect(await sched.scheduler.tick()).toBe(2);
    await sched.settle();
    expect((await sched.runs(stops))[0]).toMatchObject({
      outcome: 'failed',
      tasks: [
        { outcome: 'failed', reason: 'Server must be online in order to send commands.' },
        { outcome: 'skipped', reason: 'An earlier task failed.' },
      ],
    });
    expect((await sched.runs(goes))[0]).toMatchObject({ outcome: 'failed', tasks: [{ outcome: 'failed' }, { outcome: 'done' }] });
    expect(sched.slept.sort()).toEqual([5000, 5000, 7000]);
    // The backup task made a real backup, named for its schedule.
    await eventually(async () => (await panel.db.selectFrom('backups').select('completed_at').executeTakeFirst())?.completed_at != null);
    const backup = await panel.db.selectFrom('backups').selectAll().executeTakeFirstOrThrow();
    expect(backup).toMatchObject({ is_successful: 1, name: 'Scheduled backup (Goes on)' });
    expect(JSON.parse(backup.ignored_files)).toEqual(['*.log']);

    // At the backup limit the next scheduled backup replaces the oldest unlocked one.
    panel.clock.advance(86_400_000);
    await sched.scheduler.tick();
    await sched.settle();
    await eventually(async () =>
      (await panel.db.selectFrom('backups').select('completed_at').where('deleted_at', 'is', null).execute()).every((b) => b.completed_at !== null),
    );
    const live = await panel.db.selectFrom('backups').select('id').where('deleted_at', 'is', null).execute();
    expect(live.map((b) => b.id)).not.toContain(backup.id);
    expect(live).toHaveLength(1);
  });

  it('skips a server that is not running when only when online; leaves an inactive schedule alone', async ({ panel, sched }) => {
    const online = await sched.make({ only_when_online: true }, [{ action: 'power', payload: 'stop' }]);
    const inactive = await sched.make({ is_active: false }, [{ action: 'power', payload: 'start' }]);
    panel.clock.advance(86_400_000);
    expect(await sched.scheduler.tick()).toBe(1);
    await sched.settle();
    expect((await sched.runs(online))[0]).toMatchObject({ outcome: 'skipped', reason: 'The server was not running.' });
    expect(await sched.runs(inactive)).toEqual([]);
    expect(panel.daemon.process.state(sched.server.uuid)).toBe('offline');
  });

  it(
    'run now applies offsets, restarts the running game with a power task, and refuses a second run while one is under way',
    { timeout: 30_000 },
    async ({ panel, sched }) => {
      await sched.start();
      const id = await sched.make({}, [
        { action: 'command', payload: 'say restarting' },
        { action: 'power', payload: 'restart', time_offset: 60 },
      ]);
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const held = new Scheduler({ db: panel.db, clock: panel.clock, nodes: panel.nodes, config: panel.config, sleep: () => gate });
      const row = await schedules.findById(panel.db, id);
      if (!row) throw new Error('no schedule');
      await held.runNow(row);
      await expect(held.runNow(row)).rejects.toMatchObject({ status: 409 });
      release();
      while (held.inFlight.size > 0) await Promise.all([...held.inFlight]);
      await eventually(async () => (await sched.history()).filter((l) => l.includes('Done (')).length >= 2, 20_000);
      expect((await sched.history()).some((l) => l.includes('[Server] restarting'))).toBe(true);
      expect((await sched.runs(id))[0]).toMatchObject({ trigger: 'manual', outcome: 'done' });
    },
  );

  it('after a restart: an unfinished run is interrupted and the schedule fires again; a missed one runs once', async ({ panel, sched }) => {
    const id = await sched.make({}, [{ action: 'command', payload: 'say hi' }]);
    // A previous process died mid-chain.
    await panel.db.updateTable('schedules').set({ is_processing: 1 }).where('id', '=', id).execute();
    await schedules.insertRun(panel.db, id, 'cron', panel.clock.now());
    // And was down for three days past the schedule's time.
    panel.clock.advance(3 * 86_400_000);
    await sched.scheduler.start();
    await sched.settle();
    sched.scheduler.stop();
    const runs = await sched.runs(id);
    expect(runs.map((r) => [r.trigger, r.outcome])).toEqual([
      ['missed', 'failed'], // the server is offline: its command fails
      ['cron', 'interrupted'],
    ]);
    expect(runs[1]?.reason).toBe('The panel stopped while this run was under way.');
    const row = await schedules.findById(panel.db, id);
    expect(row?.is_processing).toBe(0);
    expect(new Date(row?.next_run_at ?? 0).getTime()).toBeGreaterThan(panel.clock.now().getTime());
  });
});
