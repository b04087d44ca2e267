import { describe, expect } from 'vitest';
import { test } from '../test/fixtures';

/*
 * The schedules API (issue 23 §2): the reference's shapes, codes and permissions, and a clear 422
 * naming the field where the reference answers 500 or misreads a boolean.
 */

const DAILY = { name: 'Nightly restart', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true };

const it = test.extend('owned', async ({ makePanel }) => {
  const panel = await makePanel({ timezone: 'Europe/Berlin', scheduleTaskLimit: 3 });
  const owner = await panel.user();
  const server = await panel.server(owner);
  const headers = await panel.bearerHeaders(owner);
  const base = `/api/client/servers/${server.uuid}/schedules`;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, as = headers) =>
    panel.app.inject({ method, url: `${base}${url}`, headers: as, ...(payload === undefined ? {} : { payload: payload as object }) });
  const events = async () =>
    (await panel.db.selectFrom('activity_logs').select(['event', 'properties']).orderBy('id').execute()).map((r) => ({
      event: r.event,
      properties: JSON.parse(r.properties) as Record<string, unknown>,
    }));
  return { panel, owner, server, headers, call, events };
});

describe('schedules API', () => {
  it('creates a schedule (200), with its cron, next run in the panel zone, and tasks; lists and shows it', async ({ owned }) => {
    const created = await owned.call('POST', '', DAILY);
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({
      object: 'server_schedule',
      attributes: {
        name: 'Nightly restart',
        cron: { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' },
        is_active: true,
        is_processing: false,
        only_when_online: false,
        last_run_at: null,
        // 04:00 in Berlin (CET, UTC+1) after 2026-03-01 12:00 UTC.
        next_run_at: '2026-03-02T03:00:00+00:00',
        timezone: null,
        effective_timezone: 'Europe/Berlin',
        relationships: { tasks: { object: 'list', data: [] } },
      },
    });
    const id = body.attributes.id as number;
    const list = (await owned.call('GET', '')).json();
    expect(list.data.map((s: { attributes: { id: number } }) => s.attributes.id)).toEqual([id]);
    expect((await owned.call('GET', `/${id}`)).json().attributes.runs).toEqual([]);
    expect(await owned.events()).toEqual([{ event: 'server:schedule.create', properties: { name: 'Nightly restart' } }]);
  });

  it('answers 422 naming the field for a bad cron field (the month too), a missing month, a string boolean and an unknown zone', async ({
    owned,
  }) => {
    const field = async (body: unknown) =>
      (await owned.call('POST', '', body)).json().errors.map((e: { source: { field: string } }) => e.source.field);
    expect(await field({ ...DAILY, month: '13' })).toEqual(['month']);
    expect(await field({ ...DAILY, minute: '61', day_of_week: 'funday' })).toEqual(['minute', 'day_of_week']);
    const { month: _month, ...noMonth } = DAILY;
    expect(await field(noMonth)).toEqual(['month']);
    expect(await field({ ...DAILY, only_when_online: 'false' })).toEqual(['only_when_online']);
    expect(await field({ ...DAILY, timezone: 'Mars/Olympus' })).toEqual(['timezone']);
    expect((await owned.call('POST', '', { ...DAILY, month: '13' })).statusCode).toBe(422);
    expect((await owned.call('GET', '')).json().data).toEqual([]);
  });

  it('keeps a schedule zone of its own, and an update recomputes the next run and writes the new values', async ({ owned }) => {
    const id = (await owned.call('POST', '', { ...DAILY, timezone: 'America/New_York' })).json().attributes.id as number;
    expect((await owned.call('GET', `/${id}`)).json().attributes).toMatchObject({
      next_run_at: '2026-03-02T09:00:00+00:00',
      effective_timezone: 'America/New_York',
    });
    const updated = await owned.call('POST', `/${id}`, { ...DAILY, name: 'Later', hour: '6', is_active: false });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().attributes).toMatchObject({ name: 'Later', is_active: false, next_run_at: '2026-03-02T05:00:00+00:00', timezone: null });
    expect((await owned.events()).at(-1)).toEqual({ event: 'server:schedule.update', properties: { name: 'Later', active: false } });
  });

  it('adds, moves and deletes tasks in order; checks payloads and the task limit; writes the new values on update', async ({ owned }) => {
    const id = (await owned.call('POST', '', DAILY)).json().attributes.id as number;
    const task = async (body: unknown) => owned.call('POST', `/${id}/tasks`, body);
    const a = (await task({ action: 'command', payload: 'say restart in 60 s', time_offset: 0 })).json().attributes;
    const b = (await task({ action: 'power', payload: 'restart', time_offset: 60 })).json().attributes;
    // Inserted first: the others move down.
    const c = (await task({ action: 'command', payload: 'save-all', time_offset: 0, sequence_id: 1 })).json().attributes;
    const order = async () =>
      (await owned.call('GET', `/${id}`))
        .json()
        .attributes.relationships.tasks.data.map((t: { attributes: { id: number; sequence_id: number } }) => [
          t.attributes.id,
          t.attributes.sequence_id,
        ]);
    expect(await order()).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ]);
    const limited = await task({ action: 'command', payload: 'say one too many', time_offset: 0 });
    expect(limited.statusCode).toBe(400);
    expect(limited.json().errors[0].code).toBe('ServiceLimitExceededException');

    const moved = await owned.call('POST', `/${id}/tasks/${b.id}`, {
      action: 'power',
      payload: 'stop',
      time_offset: 30,
      sequence_id: 1,
      continue_on_failure: true,
    });
    expect(moved.json().attributes).toMatchObject({ sequence_id: 1, payload: 'stop', time_offset: 30, continue_on_failure: true });
    expect(await order()).toEqual([
      [b.id, 1],
      [c.id, 2],
      [a.id, 3],
    ]);
    expect((await owned.events()).at(-1)).toEqual({
      event: 'server:task.update',
      properties: { name: 'Nightly restart', action: 'power', payload: 'stop' },
    });

    const bad = async (body: unknown) => (await task(body)).json().errors[0].source.field;
    expect((await owned.call('DELETE', `/${id}/tasks/${c.id}`)).statusCode).toBe(204);
    expect(await bad({ action: 'power', payload: 'explode', time_offset: 0 })).toBe('payload');
    expect(await bad({ action: 'command', time_offset: 0 })).toBe('payload');
    expect(await bad({ action: 'delete_files', payload: 'x', time_offset: 0 })).toBe('action');
    expect(await bad({ action: 'command', payload: 'x', time_offset: 901 })).toBe('time_offset');
    expect(await order()).toEqual([
      [b.id, 1],
      [a.id, 2],
    ]);
  });

  it('refuses a backup task where backups are off (403), and run now without tasks (400)', async ({ owned }) => {
    await owned.panel.db.updateTable('servers').set({ backup_limit: 0 }).where('id', '=', owned.server.id).execute();
    const id = (await owned.call('POST', '', DAILY)).json().attributes.id as number;
    expect((await owned.call('POST', `/${id}/tasks`, { action: 'backup', time_offset: 0 })).statusCode).toBe(403);
    const run = await owned.call('POST', `/${id}/execute`);
    expect(run.statusCode).toBe(400);
    expect(run.json().errors[0].detail).toBe('Cannot process schedule for task execution: no tasks are registered.');
  });

  it('holds each route to its permission; another server or a stranger gets 404', async ({ owned }) => {
    const { panel } = owned;
    const id = (await owned.call('POST', '', DAILY)).json().attributes.id as number;
    const reader = await panel.user();
    await panel.subuser(owned.server, reader, ['schedule.read']);
    const as = await panel.bearerHeaders(reader);
    expect((await owned.call('GET', '', undefined, as)).statusCode).toBe(200);
    expect((await owned.call('GET', `/${id}`, undefined, as)).statusCode).toBe(200);
    expect((await owned.call('POST', '', DAILY, as)).statusCode).toBe(403);
    expect((await owned.call('POST', `/${id}`, DAILY, as)).statusCode).toBe(403);
    expect((await owned.call('POST', `/${id}/execute`, undefined, as)).statusCode).toBe(403);
    expect((await owned.call('DELETE', `/${id}`, undefined, as)).statusCode).toBe(403);
    expect((await owned.call('POST', `/${id}/tasks`, { action: 'command', payload: 'x', time_offset: 0 }, as)).statusCode).toBe(403);

    const stranger = await panel.bearerHeaders(await panel.user());
    expect((await owned.call('GET', '', undefined, stranger)).statusCode).toBe(404);
    // A schedule id of another server is not found through this one.
    const other = await panel.server(owned.owner);
    const foreign = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${other.uuid}/schedules/${id}`, headers: owned.headers });
    expect(foreign.statusCode).toBe(404);
    expect((await owned.call('DELETE', `/${id}`)).statusCode).toBe(204);
    expect((await owned.call('GET', `/${id}`)).statusCode).toBe(404);
  });
});
