import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { activityLogListSchema, type ActivityEvent } from '../../src/contract';
import type { UserRow } from '../db/schema';
import { logActivity } from '../services/activity';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';

type LogOptions = { actor?: UserRow | null; ip?: string; properties?: Record<string, unknown>; at?: string; serverId?: number };

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner))
  /** Writes an activity entry on the server, by its owner unless told otherwise. */
  .extend('log', async ({ panel, owner, server }) => async (event: ActivityEvent, opts: LogOptions = {}) => {
    await logActivity(panel.db, {
      event,
      ip: opts.ip ?? '203.0.113.7',
      actorId: opts.actor === undefined ? owner.id : (opts.actor?.id ?? null),
      properties: opts.properties ?? {},
      subjects: [{ type: 'server', id: opts.serverId ?? server.id }],
      timestamp: new Date(opts.at ?? panel.clock.now().toISOString()),
    });
  })
  .extend('get', async ({ panel, server }) => async (user: UserRow, query = '') => {
    return panel.app.inject({ method: 'GET', url: `/api/client/servers/${server.uuid}/activity${query}`, headers: await panel.bearerHeaders(user) });
  })
  .extend('entries', async ({ get }) => async (user: UserRow, query = '') => {
    const res = await get(user, query);
    expect(res.statusCode).toBe(200);
    return activityLogListSchema.parse(res.json());
  });

describe('GET /api/client/servers/{server}/activity', () => {
  it('answers 401 without credentials', async ({ panel, server }) => {
    const res = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${server.uuid}/activity` });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 to a stranger', async ({ panel, get }) => {
    const res = await get(await panel.user());
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NotFoundHttpException');
  });

  // attacks T-LEAK-1 (no activity.read: 403)
  it('answers 403 to a subuser without activity.read', async ({ panel, server, get }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, ['control.console']);
    const res = await get(sub);
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0].code).toBe('AccessDeniedHttpException');
  });

  // attacks T-AZ-8 (activity)
  it('answers 409 while the server is suspended', async ({ panel, owner, server, get }) => {
    await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
    const res = await get(owner);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].code).toBe('ServerStateConflictException');
  });

  it("lists only this server's entries, newest first, shaped as activity_log", async ({ panel, owner, log, entries }) => {
    const other = await panel.server(owner);
    await log('server:power.start', { at: '2026-03-01T10:00:00Z' });
    await log('server:console.command', { at: '2026-03-01T11:00:00Z', properties: { command: 'say hi' } });
    await log('server:power.stop', { serverId: other.id });
    const body = await entries(owner);
    expect(body.data.map((e) => e.attributes.event)).toEqual(['server:console.command', 'server:power.start']);
    const first = body.data[0]?.attributes;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      batch: '',
      event: 'server:console.command',
      is_api: false,
      ip: '203.0.113.7',
      description: '',
      properties: { command: 'say hi' },
      has_additional_metadata: false,
      timestamp: '2026-03-01T11:00:00+00:00',
    });
    expect(body.data[1]?.attributes.id).toBe(createHash('sha1').update('1').digest('hex'));
  });

  it('sorts oldest first with sort=timestamp', async ({ owner, log, entries }) => {
    await log('server:power.start', { at: '2026-03-01T10:00:00Z' });
    await log('server:power.stop', { at: '2026-03-01T09:00:00Z' });
    const body = await entries(owner, '?sort=timestamp');
    expect(body.data.map((e) => e.attributes.event)).toEqual(['server:power.stop', 'server:power.start']);
  });

  it('rejects an unknown sort with 422 on sort', async ({ owner, get }) => {
    const res = await get(owner, '?sort=event');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ field: 'sort' });
  });

  it('rejects an unknown filter with 400 InvalidFilterQuery', async ({ owner, get }) => {
    const res = await get(owner, '?filter[ip]=1.2.3.4');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].code).toBe('InvalidFilterQuery');
  });

  it('filters by a case-insensitive part of the event name, wildcards literal', async ({ owner, log, entries }) => {
    await log('server:power.start');
    await log('server:console.command');
    await log('server:file.create-directory');
    expect((await entries(owner, '?filter[event]=POWER')).data.map((e) => e.attributes.event)).toEqual(['server:power.start']);
    expect((await entries(owner, '?filter[event]=_')).data).toEqual([]);
    expect((await entries(owner, '?filter[event]=%25')).data).toEqual([]);
  });

  it('pages with per_page, reporting the total', async ({ owner, log, entries }) => {
    for (let i = 0; i < 5; i += 1) await log('server:power.start', { at: `2026-03-01T0${i}:00:00Z` });
    const body = await entries(owner, '?per_page=2&page=3');
    expect(body.data).toHaveLength(1);
    expect(body.meta.pagination).toEqual({
      total: 5,
      count: 1,
      per_page: 2,
      current_page: 3,
      total_pages: 3,
      links: { previous: expect.stringMatching(/\/activity\?per_page=2&page=2$/) },
    });
  });

  // attacks T-LEAK-1 (per_page capped)
  it('rejects per_page above 100 with 422 on per_page', async ({ owner, get }) => {
    const res = await get(owner, '?per_page=101');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ field: 'per_page' });
  });

  it('omits relationships without include=actor', async ({ owner, log, entries }) => {
    await log('server:power.start');
    const body = await entries(owner);
    expect(body.data[0]?.attributes).not.toHaveProperty('relationships');
  });

  it('includes the actor as a user resource with include=actor', async ({ owner, log, entries }) => {
    await log('server:power.start');
    const body = await entries(owner, '?include=actor');
    expect(body.data[0]?.attributes.relationships?.actor).toEqual({
      object: 'user',
      attributes: {
        id: owner.id,
        uuid: owner.uuid,
        admin: false,
        username: owner.username,
        email: owner.email,
        first_name: 'Test',
        last_name: owner.name_last,
        language: 'en',
        image: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}$/),
      },
    });
  });

  it('includes a null_resource actor for entries without one', async ({ owner, log, entries }) => {
    await log('server:backup.complete', { actor: null, properties: { name: 'nightly' } });
    const body = await entries(owner, '?include=actor');
    expect(body.data[0]?.attributes.relationships?.actor).toEqual({ object: 'null_resource', attributes: null });
  });

  it('rejects an unsupported include with 422', async ({ owner, get }) => {
    const res = await get(owner, '?include=server');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ field: 'include' });
  });

  // attacks T-LEAK-1
  it("hides other users' IPs from a subuser but shows their own (an IP is shown only to its actor or an admin)", async ({
    panel,
    owner,
    server,
    log,
    entries,
  }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, ['activity.read']);
    await log('server:power.start', { actor: owner, ip: '198.51.100.1', properties: { ip: '198.51.100.1' } });
    await log('server:power.stop', { actor: sub, ip: '198.51.100.2', properties: { ip: '198.51.100.2' } });
    const body = await entries(sub);
    const byEvent = Object.fromEntries(body.data.map((e) => [e.attributes.event, e.attributes]));
    expect(byEvent['server:power.start']).toMatchObject({ ip: '', properties: { ip: '[hidden]' } });
    expect(byEvent['server:power.stop']).toMatchObject({ ip: '198.51.100.2', properties: { ip: '198.51.100.2' } });
    expect(JSON.stringify(body)).not.toContain('198.51.100.1');
  });

  // attacks T-LEAK-1
  it("shows a root admin the top-level IP but not another actor's properties.ip", async ({ panel, owner, log, entries }) => {
    const admin = await panel.user({ admin: true });
    await log('server:power.start', { actor: owner, ip: '198.51.100.1', properties: { ip: '198.51.100.9' } });
    const body = await entries(admin);
    expect(body.data[0]?.attributes).toMatchObject({ ip: '198.51.100.1', properties: { ip: '[hidden]' } });
  });

  it('adds a count for one array property and normalises the directory', async ({ owner, log, entries }) => {
    await log('server:file.delete', { properties: { directory: 'plugins//x', files: ['a.jar', 'b.jar'] } });
    const body = await entries(owner);
    expect(body.data[0]?.attributes.properties).toEqual({ directory: '/plugins/x/', files: ['a.jar', 'b.jar'], count: 2 });
  });

  it('keeps a _count per array when there are several', async ({ owner, log, entries }) => {
    await log('server:sftp.rename', { properties: { old: ['a'], new: ['b', 'c'] } });
    const body = await entries(owner);
    expect(body.data[0]?.attributes.properties).toEqual({ old: ['a'], old_count: 1, new: ['b', 'c'], new_count: 2 });
  });

  it('flags properties the description does not show as additional metadata', async ({ owner, log, entries }) => {
    await log('server:backup.start', { properties: { name: 'nightly', locked: false } });
    const body = await entries(owner);
    expect(body.data[0]?.attributes.has_additional_metadata).toBe(true);
  });

  it('never lists file upload events', async ({ owner, log, entries }) => {
    await log('server:file.upload', { properties: { file: 'x' } });
    const body = await entries(owner);
    expect(body.data).toEqual([]);
  });
});
