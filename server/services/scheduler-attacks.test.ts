import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { backups, schedules } from '../db/repos';
import type { ServerRow } from '../db/schema';
import { test } from '../test/fixtures';
import { serverConfiguration } from './server-configuration';
import { eventually, makeGame } from '../test/game-support';

/*
 * Issue 23's red-team pass on what runs: schedules of a real demo game acting through the panel's
 * own scheduler, started through the client API as a tenant would. A run acts on its own server
 * only, sends its command as one line, never deletes a locked backup nor passes the limit, never
 * runs twice at once; and the tenant's program cannot change schedules through the API.
 */

const DAILY = { name: 'Nightly', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true };

const it = test.extend('game', async ({ panel }, { onCleanup }) => {
  onCleanup(() => panel.daemon.process.stopAll());
  const a = await makeGame(panel);
  const headersA = await panel.bearerHeaders(a.owner);
  const post = (server: ServerRow, url: string, payload?: unknown, headers = headersA) =>
    panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${server.uuid}/schedules${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  /** A schedule of A's with these tasks (as the owner unless `headers` say otherwise). */
  const make = async (tasks: Record<string, unknown>[], headers = headersA) => {
    const id = (await post(a.server, '', DAILY, headers)).json().attributes.id as number;
    for (const task of tasks) expect((await post(a.server, `/${id}/tasks`, { time_offset: 0, ...task }, headers)).statusCode).toBe(200);
    return id;
  };
  const settle = async () => {
    while (panel.app.scheduler.inFlight.size > 0) await Promise.all([...panel.app.scheduler.inFlight]);
  };
  const lastRun = async (id: number) => {
    const run = (await schedules.recentRuns(panel.db, id, 1))[0];
    return run && { ...run, tasks: JSON.parse(run.tasks) as { outcome: string; reason: string | null }[] };
  };
  const start = async (server: ServerRow) => {
    await panel.daemon.process.power(server.uuid, 'start');
    await eventually(() => panel.daemon.process.state(server.uuid) === 'running', 20_000);
  };
  return { a, post, make, settle, lastRun, start };
});

describe('schedules at run time, under attack', () => {
  // Fails on the old code: the stored line break reached the game as a second line, "stop", and it stopped.
  it('sends a command task as one line even when its stored payload has a line break', { timeout: 40_000 }, async ({ panel, game }) => {
    await game.start(game.a.server);
    const id = await game.make([{ action: 'command', payload: 'say hi' }]);
    // A row saved before line breaks were refused (or written by hand).
    await panel.db.updateTable('tasks').set({ payload: 'say hi\nstop' }).where('schedule_id', '=', id).execute();
    expect((await game.post(game.a.server, `/${id}/execute`)).statusCode).toBe(202);
    await game.settle();
    expect(await game.lastRun(id)).toMatchObject({
      outcome: 'failed',
      tasks: [{ outcome: 'failed', reason: expect.stringMatching(/one console line/) }],
    });
    // Still running, and nothing of the payload reached it: a later line is the next it answers.
    await panel.daemon.process.command(game.a.server.uuid, 'say after');
    await eventually(async () => (await game.a.history()).some((l) => l.includes('[Server] after')));
    expect((await game.a.history()).some((l) => l.includes('[Server] hi'))).toBe(false);
    expect(panel.daemon.process.state(game.a.server.uuid)).toBe('running');
  });

  it('acts only on its own server, whatever server a task body names', { timeout: 40_000 }, async ({ panel, game }) => {
    const b = await makeGame(panel);
    await game.start(b.server);
    await game.start(game.a.server);
    const id = await game.make([{ action: 'power', payload: 'kill', server: b.server.uuid, server_id: b.server.id, uuid: b.server.uuid }]);
    expect((await game.post(game.a.server, `/${id}/execute`)).statusCode).toBe(202);
    await game.settle();
    await eventually(() => panel.daemon.process.state(game.a.server.uuid) === 'offline');
    expect(panel.daemon.process.state(b.server.uuid)).toBe('running');
    const kills = await panel.db.selectFrom('activity_logs').select('id').where('event', '=', 'server:power.kill').execute();
    expect(kills).toHaveLength(1);
    const subjects = await panel.db
      .selectFrom('activity_subjects')
      .selectAll()
      .where('activity_log_id', '=', kills[0]?.id ?? 0)
      .execute();
    expect(subjects.filter((s) => s.subject_type === 'server').map((s) => s.subject_id)).toEqual([game.a.server.id]);
  });

  it('runs one chain at a time: run now spammed while one is under way answers 409', async ({ panel, game }) => {
    // The first task waits out its offset, so the first run is still under way for the others.
    const id = await game.make([{ action: 'command', payload: 'say slow', time_offset: 900 }]);
    const tries = await Promise.all(Array.from({ length: 6 }, () => game.post(game.a.server, `/${id}/execute`)));
    expect(tries.map((r) => r.statusCode).sort()).toEqual([202, 409, 409, 409, 409, 409]);
    expect(await schedules.recentRuns(panel.db, id, 10)).toHaveLength(1);
    // Nor does the minute's tick start a second one while it runs.
    panel.clock.advance(86_400_000);
    expect(await panel.app.scheduler.tick()).toBe(0);
    // Nor turning it off and on again (the way out of a stuck flag) while its chain still runs.
    // Fails on the old code: the toggle cleared the flag and this run now answered 202.
    expect((await game.post(game.a.server, `/${id}`, { ...DAILY, is_active: false })).json().attributes.is_processing).toBe(true);
    expect((await game.post(game.a.server, `/${id}`, DAILY)).statusCode).toBe(200);
    expect((await game.post(game.a.server, `/${id}/execute`)).statusCode).toBe(409);
    expect(await schedules.recentRuns(panel.db, id, 10)).toHaveLength(1);
  });

  it('never deletes a locked backup to make room, nor goes past the backup limit', { timeout: 20_000 }, async ({ panel, game }) => {
    const { server } = game.a;
    await panel.db.updateTable('servers').set({ backup_limit: 1 }).where('id', '=', server.id).execute();
    const locked = await backups.insert(panel.db, {
      uuid: crypto.randomUUID(),
      server_id: server.id,
      name: 'Keep me',
      ignored_files: [],
      is_locked: true,
      now: panel.clock.now(),
    });
    await backups.finish(panel.db, server.id, locked.uuid, { successful: true, checksum: 'sha1:0', bytes: 1, now: panel.clock.now() });
    const id = await game.make([{ action: 'backup', payload: '' }]);
    expect((await game.post(game.a.server, `/${id}/execute`)).statusCode).toBe(202);
    await game.settle();
    expect(await game.lastRun(id)).toMatchObject({
      outcome: 'failed',
      tasks: [{ outcome: 'failed', reason: expect.stringMatching(/limit of 1 backups/) }],
    });
    const live = await panel.db.selectFrom('backups').select(['id', 'is_locked']).where('deleted_at', 'is', null).execute();
    expect(live).toEqual([{ id: locked.id, is_locked: 1 }]);
  });

  it(
    "runs a saved command task as the server's, after its author lost the console permission (the reference's rule)",
    { timeout: 40_000 },
    async ({ panel, game }) => {
      await game.start(game.a.server);
      const author = await panel.user();
      await panel.subuser(game.a.server, author, ['schedule.read', 'schedule.create', 'schedule.update', 'control.console']);
      const id = await game.make([{ action: 'command', payload: 'say from the schedule' }], await panel.bearerHeaders(author));
      await panel.db
        .updateTable('subusers')
        .set({ permissions: JSON.stringify(['schedule.read']) })
        .where('user_id', '=', author.id)
        .execute();
      const row = await schedules.findById(panel.db, id);
      panel.clock.set(new Date(row?.next_run_at ?? 0));
      expect(await panel.app.scheduler.tick()).toBe(1);
      await game.settle();
      await eventually(async () => (await game.a.history()).some((l) => l.includes('[Server] from the schedule')));
      // Written as the schedule's, with no user as actor: the author's rights are not what it runs on.
      const entry = await panel.db.selectFrom('activity_logs').selectAll().where('event', '=', 'server:console.command').executeTakeFirstOrThrow();
      expect(entry.actor_id).toBeNull();
      expect(JSON.parse(entry.properties)).toEqual({ command: 'say from the schedule', schedule: 'Nightly' });
    },
  );

  it(
    "lets the server's own program make no schedule and no account through the client or application API: it holds no key",
    { timeout: 40_000 },
    async ({ panel, game }) => {
      await panel.app.listen({ port: 0, host: '127.0.0.1' });
      const address = panel.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const { server } = game.a;
      fs.writeFileSync(path.join(panel.daemon.volumePath(server.uuid), 'probe.mjs'), PROBE);
      await panel.db
        .updateTable('servers')
        .set({ startup: `node probe.mjs ${port} ${server.uuid}` })
        .where('id', '=', server.id)
        .execute();
      await panel.reconfigure(server);
      await panel.daemon.process.power(server.uuid, 'start');
      let seen: (number | string)[] = [];
      await eventually(async () => {
        const line = (await game.a.history()).find((l) => l.includes('probe '));
        if (line) seen = JSON.parse(line.slice(line.indexOf('probe ') + 6)) as (number | string)[];
        return line !== undefined;
      }, 30_000);
      // Unreachable from its sandbox's network, or refused without a key: never a schedule made.
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((s) => s === 401 || s === 'failed')).toBe(true);
      // Were it let through (PANEL_SERVER_HOST_PORTS, host networking): nothing it is given is a key.
      const environment = (await serverConfiguration(panel.db, server.uuid))?.settings.environment ?? {};
      for (const key of ['', server.uuid, ...Object.values(environment)]) {
        const headers: Record<string, string> = key === '' ? {} : { authorization: `Bearer ${key}` };
        expect((await game.post(server, '', DAILY, headers)).statusCode).toBe(401);
        const account = await panel.app.inject({
          method: 'POST',
          url: '/api/application/users',
          headers: { ...headers, accept: 'application/json' },
          payload: ACCOUNT,
        });
        expect(account.statusCode).toBe(401);
      }
      expect(await schedules.ofServer(panel.db, server.id)).toEqual([]);
      expect(await panel.db.selectFrom('users').select('id').where('email', '=', ACCOUNT.email).execute()).toEqual([]);
    },
  );
});

const ACCOUNT = { email: 'pwned@example.com', username: 'pwned', first_name: 'P', last_name: 'W', root_admin: true };

/**
 * Tries to create a schedule for its own server and a root admin account, bare and with each value
 * of its environment as a key.
 */
const PROBE = `
const [port, uuid] = process.argv.slice(2);
const targets = [
  ["/api/client/servers/" + uuid + "/schedules", { name: "pwned", minute: "*", hour: "*", day_of_month: "*", month: "*", day_of_week: "*", is_active: true }],
  ["/api/application/users", ${JSON.stringify(ACCOUNT)}],
];
const seen = new Set();
for (const [url, body] of targets) {
  for (const key of ["", ...Object.values(process.env)]) {
    try {
      const headers = { "content-type": "application/json", accept: "application/json" };
      if (key) headers.authorization = "Bearer " + key;
      const r = await fetch("http://127.0.0.1:" + port + url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(2000) });
      seen.add(r.status);
    } catch { seen.add("failed"); }
  }
}
console.log("probe " + JSON.stringify([...seen]));
`;
