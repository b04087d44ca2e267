import { describe, expect } from 'vitest';
import { test } from '../test/fixtures';

/*
 * Issue 23's red-team pass, hostile input: every bad body answers 422 naming the field (or the
 * body parser's 4xx), never a 500, and what is stored is what the tenant was allowed to say.
 */

const DAILY = { name: 'Nightly', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*', is_active: true };

const it = test.extend('owned', async ({ panel }) => {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const other = await panel.server(await panel.user());
  const headers = await panel.bearerHeaders(owner);
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    panel.app.inject({
      method,
      url: `/api/client/servers/${server.uuid}/schedules${url}`,
      headers: { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  /** The fields a 422 names (each once), or the status when it is not a 422. */
  const fields = async (method: 'GET' | 'POST', url: string, payload: unknown) => {
    const r = await call(method, url, payload);
    return r.statusCode === 422 ? [...new Set((r.json().errors as { source: { field: string } }[]).map((e) => e.source.field))] : r.statusCode;
  };
  const schedule = async (body: object = {}) => (await call('POST', '', { ...DAILY, ...body })).json().attributes;
  return { panel, server, other, call, fields, schedule };
});

describe('schedules given hostile input', () => {
  it('bounds names and cron fields, keeps unicode as sent, and refuses a body past the size limit', async ({ owned }) => {
    expect(await owned.fields('POST', '', { ...DAILY, name: 'n'.repeat(192) })).toEqual(['name']);
    expect(await owned.fields('POST', '', { ...DAILY, minute: '0,'.repeat(100) + '0' })).toEqual(['minute']);
    expect(await owned.fields('POST', '', { ...DAILY, hour: '4\n* * * *' })).toEqual(['hour']);
    for (const minute of ['*/0', '59-0', '0-59/0', '*/99999999999999999999', '0x10', '1e1', '-1', '٣', '1-3-5', '/5']) {
      expect([minute, await owned.fields('POST', '', { ...DAILY, minute })]).toEqual([minute, ['minute']]);
    }
    // Steps and lists that overlap expand to each minute once (Monday 2 March, 04:00 being the first).
    expect((await owned.schedule({ minute: '0-59/1,*/1,0-59', day_of_week: 'MON-FRI' })).next_run_at).toBe('2026-03-02T04:00:00+00:00');
    expect(await owned.fields('POST', '', { ...DAILY, name: 42, is_active: 'yes' })).toEqual(['name', 'is_active']);
    const name = '🦀 Ночной перезапуск 夜 \u202Eevil';
    expect((await owned.schedule({ name })).name).toBe(name);
    const huge = await owned.call('POST', '', { ...DAILY, name: 'x'.repeat(3 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect((await owned.call('POST', '', '{"name": "x", "__proto__": {"is_active": true}}')).statusCode).toBe(400);
    expect((await owned.call('POST', '', '{"name": ')).statusCode).toBe(400);
  });

  it('ignores fields a tenant may not set: ids, the server, processing state and run times', async ({ owned }) => {
    const made = await owned.schedule({
      id: 999,
      server_id: owned.other.id,
      is_processing: true,
      last_run_at: '2000-01-01T00:00:00Z',
      next_run_at: '2000-01-01T00:00:00Z',
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(made).toMatchObject({ is_processing: false, last_run_at: null, next_run_at: '2026-03-02T04:00:00+00:00' });
    expect(made.id).not.toBe(999);
    const row = await owned.panel.db.selectFrom('schedules').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.server_id).toBe(owned.server.id);
    const task = await owned.call('POST', `/${made.id}/tasks`, {
      action: 'command',
      payload: 'say x',
      time_offset: 0,
      schedule_id: 1,
      is_queued: true,
      id: 7,
    });
    expect(task.json().attributes).toMatchObject({ is_queued: false, sequence_id: 1 });
    const stored = await owned.panel.db.selectFrom('tasks').selectAll().executeTakeFirstOrThrow();
    expect(stored.schedule_id).toBe(made.id);
  });

  it('takes a cron that never fires (30 February) without a busy loop, and a time zone only by its IANA name', async ({ owned }) => {
    const started = Date.now();
    const never = await owned.schedule({ minute: '*', hour: '*', day_of_month: '31', month: '2', day_of_week: '*' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(never).toMatchObject({ next_run_at: null, is_active: true });
    owned.panel.clock.advance(400 * 86_400_000);
    // Never due, so never picked up; the schedule stays as it was.
    expect(await owned.panel.app.scheduler.tick()).toBe(0);
    const every = await owned.schedule({ minute: '0-59/1', hour: '0-23', day_of_month: '1-31', month: '1-12', day_of_week: '0-7' });
    expect(new Date(every.next_run_at).getTime() - owned.panel.clock.now().getTime()).toBeLessThanOrEqual(60_000);
    for (const timezone of ['../../etc/localtime', 'Europe/../UTC', '/etc/localtime', 'UTC\u0000', 'Etc/GMT+14', 'x'.repeat(65)]) {
      expect([timezone, await owned.fields('POST', '', { ...DAILY, timezone })]).toEqual([timezone, ['timezone']]);
    }
    expect((await owned.schedule({ timezone: 'Pacific/Kiritimati' })).effective_timezone).toBe('Pacific/Kiritimati');
  });

  // Fails on the old code: a command with a line break was stored and sent as two console lines.
  it('keeps a command task to one console line, and bounds every payload', async ({ owned }) => {
    const { id } = await owned.schedule();
    const task = (body: object) => owned.fields('POST', `/${id}/tasks`, { action: 'command', time_offset: 0, ...body });
    for (const payload of ['say hi\nstop', 'say hi\rstop', 'say hi\r\nop attacker', 'say \u0000hi', 'x'.repeat(4097)]) {
      expect([payload.slice(0, 20), await task({ payload })]).toEqual([payload.slice(0, 20), ['payload']]);
    }
    expect(await task({ action: 'backup', payload: 'x'.repeat(65_536) })).toEqual(['payload']);
    expect(await task({ action: 'backup', payload: 'logs\u0000/etc' })).toEqual(['payload']);
    expect(await task({ payload: 'x'.repeat(4096) })).toBe(200);
    expect(await task({ action: 'backup', payload: '*.log\r\ncache/\n\n' })).toBe(200);
    // A line break updated into an existing task is refused as well.
    const first = (await owned.panel.db.selectFrom('tasks').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    expect(await owned.fields('POST', `/${id}/tasks/${first}`, { action: 'command', payload: 'say a\nstop', time_offset: 0 })).toEqual(['payload']);
    const payloads = (await owned.panel.db.selectFrom('tasks').select('payload').orderBy('id').execute()).map((t) => t.payload);
    expect(payloads).toEqual(['x'.repeat(4096), '*.log\r\ncache/\n\n']);
  });

  it('refuses negative, fractional, huge and string offsets and sequence ids; clamps a sequence id outside the list', async ({ owned }) => {
    const { id } = await owned.schedule();
    const task = (body: object) => owned.fields('POST', `/${id}/tasks`, { action: 'command', payload: 'say x', time_offset: 0, ...body });
    for (const time_offset of [-1, 1.5, 901, 1e9, '10', null, Number.MAX_SAFE_INTEGER + 2]) {
      expect([time_offset, await task({ time_offset })]).toEqual([time_offset, ['time_offset']]);
    }
    for (const sequence_id of [1.5, 1e20, '1', true]) {
      expect([sequence_id, await task({ sequence_id })]).toEqual([sequence_id, ['sequence_id']]);
    }
    expect(await task({ sequence_id: 1_000_000 })).toBe(200);
    expect(await task({ sequence_id: -5 })).toBe(200);
    expect(await task({ sequence_id: 0 })).toBe(200);
    const order = (await owned.panel.db.selectFrom('tasks').select(['id', 'sequence_id']).orderBy('sequence_id').execute()).map((t) => t.sequence_id);
    expect(order).toEqual([1, 2, 3]);
  });
});
