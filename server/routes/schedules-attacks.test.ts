import { describe, expect } from 'vitest';
import type { ServerRow, UserRow } from '../db/schema';
import { test } from '../test/fixtures';

/*
 * Issue 23's red-team pass on the schedules API, as a tenant would try it through the client API:
 * another server's schedule and task ids in my server's URL (T-AZ-2), subusers reaching past
 * their permissions (T-AZ-4, CVE-2026-86177), servers in a state that refuses actions, and the
 * schedule limit. Each attempt checks that nothing changed, not only the status code.
 */

const DAILY = { name: 'Nightly', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true };
type Method = 'GET' | 'POST' | 'DELETE';

const it = test.extend('two', async ({ makePanel }) => {
  const panel = await makePanel({ scheduleLimit: 3 });
  const url = (server: ServerRow, rest: string) => `/api/client/servers/${server.uuid}/schedules${rest}`;
  const call = (headers: Record<string, string>, method: Method, server: ServerRow, rest: string, payload?: unknown) =>
    panel.app.inject({ method, url: url(server, rest), headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tenant = async () => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    return { owner, server, headers: await panel.bearerHeaders(owner) };
  };
  const a = await tenant();
  const b = await tenant();
  /** A schedule of `who`'s with one command task. */
  const scheduleOf = async (who: typeof a) => {
    const schedule = (await call(who.headers, 'POST', who.server, '', DAILY)).json().attributes.id as number;
    const task = (await call(who.headers, 'POST', who.server, `/${schedule}/tasks`, { action: 'command', payload: 'say hi', time_offset: 0 })).json()
      .attributes.id as number;
    return { schedule, task };
  };
  /** Everything about the schedules and tasks that a write could change. */
  const snapshot = async () => ({
    schedules: await panel.db.selectFrom('schedules').selectAll().orderBy('id').execute(),
    tasks: await panel.db.selectFrom('tasks').selectAll().orderBy('id').execute(),
    runs: await panel.db.selectFrom('schedule_runs').selectAll().execute(),
  });
  const as = async (user: UserRow, server: ServerRow, permissions: string[]) => {
    await panel.subuser(server, user, permissions);
    return panel.bearerHeaders(user);
  };
  return { panel, a, b, call, scheduleOf, snapshot, as };
});

/** Every schedule route naming `s` (and task `t`), with valid bodies. */
function everyRoute(s: number, t: number): [Method, string, unknown?][] {
  return [
    ['GET', `/${s}`],
    ['POST', `/${s}`, { ...DAILY, name: 'Hijacked' }],
    ['POST', `/${s}/execute`],
    ['POST', `/${s}/tasks`, { action: 'power', payload: 'kill', time_offset: 0 }],
    ['POST', `/${s}/tasks/${t}`, { action: 'power', payload: 'kill', time_offset: 0 }],
    ['POST', `/${s}/tasks/${t}`, { action: 'command', payload: 'say hi', time_offset: 0, sequence_id: 5 }], // a move
    ['DELETE', `/${s}/tasks/${t}`],
    ['DELETE', `/${s}`],
  ];
}

describe('schedules under attack', () => {
  it("answers 404 for another server's schedule or task through my server's URL, and changes nothing", async ({ two }) => {
    const { a, b, call } = two;
    const mine = await two.scheduleOf(a);
    const theirs = await two.scheduleOf(b);
    const before = await two.snapshot();
    for (const [method, rest, body] of [
      ...everyRoute(theirs.schedule, theirs.task),
      // My schedule with their task.
      ...everyRoute(mine.schedule, theirs.task).filter(([, rest]) => rest.includes('/tasks/')),
    ]) {
      expect([method, rest, (await call(a.headers, method, a.server, rest, body)).statusCode]).toEqual([method, rest, 404]);
    }
    // Their server's URL with my key: the server itself is not found.
    for (const [method, rest, body] of everyRoute(theirs.schedule, theirs.task)) {
      expect((await call(a.headers, method, b.server, rest, body)).statusCode).toBe(404);
    }
    expect(await two.snapshot()).toEqual(before);
  });

  it('keeps a schedule.read subuser to reading: every write is 403 and changes nothing', async ({ two }) => {
    const { a, call } = two;
    const { schedule, task } = await two.scheduleOf(a);
    const reader = await two.as(await two.panel.user(), a.server, ['schedule.read']);
    const before = await two.snapshot();
    for (const [method, rest, body] of [['POST', '', DAILY] as [Method, string, unknown], ...everyRoute(schedule, task)]) {
      const expected = method === 'GET' ? 200 : 403;
      expect([method, rest, (await call(reader, method, a.server, rest, body)).statusCode]).toEqual([method, rest, expected]);
    }
    expect(await two.snapshot()).toEqual(before);
  });

  it('checks permissions on each request: a subuser whose permissions are taken away mid-way is refused at once', async ({ two }) => {
    const { a, call, panel } = two;
    const user = await panel.user();
    const headers = await two.as(user, a.server, ['schedule.read', 'schedule.create', 'schedule.update', 'schedule.delete', 'control.console']);
    const id = (await call(headers, 'POST', a.server, '', DAILY)).json().attributes.id as number;
    expect((await call(headers, 'POST', a.server, `/${id}/tasks`, { action: 'command', payload: 'say a', time_offset: 0 })).statusCode).toBe(200);
    await panel.db
      .updateTable('subusers')
      .set({ permissions: JSON.stringify(['schedule.read']) })
      .where('user_id', '=', user.id)
      .execute();
    const before = await two.snapshot();
    expect((await call(headers, 'POST', a.server, `/${id}`, { ...DAILY, name: 'Changed' })).statusCode).toBe(403);
    expect((await call(headers, 'POST', a.server, `/${id}/tasks`, { action: 'command', payload: 'say b', time_offset: 0 })).statusCode).toBe(403);
    expect((await call(headers, 'DELETE', a.server, `/${id}`)).statusCode).toBe(403);
    expect(await two.snapshot()).toEqual(before);
    // And removed altogether: the server is not found.
    await panel.db.deleteFrom('subusers').where('user_id', '=', user.id).execute();
    expect((await call(headers, 'GET', a.server, `/${id}`)).statusCode).toBe(404);
  });

  // Fails on the old code: tasks needed only schedule.update, so this subuser got 200 for each (T-AZ-4).
  it('refuses a task whose action the subuser could not take directly, and a run now of such tasks (CVE-2026-86177)', async ({ two }) => {
    const { a, call, panel } = two;
    const { schedule } = await two.scheduleOf(a); // the owner's: a command task
    await call(a.headers, 'POST', a.server, `/${schedule}/tasks`, { action: 'power', payload: 'restart', time_offset: 0 });
    const planner = await two.as(await panel.user(), a.server, ['schedule.read', 'schedule.create', 'schedule.update']);
    const own = (await call(planner, 'POST', a.server, '', DAILY)).json().attributes.id as number;
    const before = await two.snapshot();
    const task = (body: object) => call(planner, 'POST', a.server, `/${own}/tasks`, { time_offset: 0, ...body });
    for (const body of [
      { action: 'command', payload: 'op me' },
      { action: 'power', payload: 'kill' },
      { action: 'power', payload: 'start' },
      { action: 'backup' },
    ]) {
      const refused = await task(body);
      expect([body, refused.statusCode]).toEqual([body, 403]);
      expect(refused.json().errors[0].detail).toMatch(/needs the (control\.\w+|backup\.create) permission/);
    }
    // Nor by rewriting the owner's task, nor by running the owner's schedule now.
    const ownerTask = (await two.snapshot()).tasks.find((t) => t.schedule_id === schedule);
    expect(
      (await call(planner, 'POST', a.server, `/${schedule}/tasks/${ownerTask?.id ?? 0}`, { action: 'command', payload: 'op me', time_offset: 0 }))
        .statusCode,
    ).toBe(403);
    expect((await call(planner, 'POST', a.server, `/${schedule}/execute`)).statusCode).toBe(403);
    expect(await two.snapshot()).toEqual(before);

    // With the console permission: command tasks, and still no power ones.
    await panel.db
      .updateTable('subusers')
      .set({ permissions: JSON.stringify(['schedule.read', 'schedule.create', 'schedule.update', 'control.console']) })
      .where('server_id', '=', a.server.id)
      .execute();
    expect((await task({ action: 'command', payload: 'say hello' })).statusCode).toBe(200);
    expect((await task({ action: 'power', payload: 'restart' })).statusCode).toBe(403);
    // The owner's schedule holds a restart: running it now is still refused.
    expect((await call(planner, 'POST', a.server, `/${schedule}/execute`)).statusCode).toBe(403);
  });

  it('answers 409 on every schedule route of a suspended or installing server, and changes nothing', async ({ two }) => {
    const { a, call, panel } = two;
    const { schedule, task } = await two.scheduleOf(a);
    const before = await two.snapshot();
    for (const status of ['suspended', 'installing'] as const) {
      await panel.db.updateTable('servers').set({ status }).where('id', '=', a.server.id).execute();
      for (const [method, rest, body] of [
        ['GET', ''] as [Method, string],
        ['POST', '', DAILY] as [Method, string, unknown],
        ...everyRoute(schedule, task),
      ]) {
        expect([status, method, rest, (await call(a.headers, method, a.server, rest, body)).statusCode]).toEqual([status, method, rest, 409]);
      }
    }
    expect(await two.snapshot()).toEqual(before);
  });

  // Fails on the old code: there was no limit, and every create answered 200.
  it('holds a server to PANEL_SCHEDULE_LIMIT schedules, even when creates race', async ({ two }) => {
    const { a, b, call } = two;
    const creates = await Promise.all(Array.from({ length: 6 }, (_, i) => call(a.headers, 'POST', a.server, '', { ...DAILY, name: `S${i}` })));
    expect(creates.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 400, 400, 400]);
    const refused = creates.find((r) => r.statusCode === 400)?.json();
    expect(refused.errors[0]).toMatchObject({ code: 'ServiceLimitExceededException', detail: 'A server may not have more than 3 schedules.' });
    expect((await call(a.headers, 'GET', a.server, '')).json().data).toHaveLength(3);
    // Per server: another tenant is not affected.
    expect((await call(b.headers, 'POST', b.server, '', DAILY)).statusCode).toBe(200);
  });
});
