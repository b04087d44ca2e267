import { describe, expect } from 'vitest';
import { locationListSchema, locationSchema } from '../../src/contract/locations';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The application API's locations (issue 25 §2, §4) against the reference panel's
 * LocationControllerTest: shapes, pages, includes, the create and update rules, and no deleting a
 * location that still has nodes.
 */

type Headers = Record<string, string>;
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function adminKey(panel: TestPanel, grants?: Parameters<TestPanel['applicationHeaders']>[1]) {
  const admin = await panel.user({ admin: true });
  return { admin, headers: await panel.applicationHeaders(admin, grants) };
}

const locationCount = async (panel: TestPanel) => (await panel.db.selectFrom('locations').selectAll().execute()).length;

describe('the application API: locations', () => {
  it('creates a location (201, meta.resource), lists it paged and filtered, and shows it', async ({ panel }) => {
    const { headers } = await adminKey(panel);
    const made = await call(panel, 'POST', '/locations', headers, { short: 'inhouse', long: 'This is my inhouse location' });
    expect(made.statusCode, made.body).toBe(201);
    const body = made.json();
    expect(Object.keys(body)).toEqual(['object', 'attributes', 'meta']);
    expect(body.attributes).toEqual({
      id: expect.any(Number),
      short: 'inhouse',
      long: 'This is my inhouse location',
      updated_at: '2026-03-01T12:00:00.000Z',
      created_at: '2026-03-01T12:00:00.000Z',
    });
    expect(body.meta.resource).toMatch(new RegExp(`/api/application/locations/${String(body.attributes.id)}$`));
    await call(panel, 'POST', '/locations', headers, { short: 'eu-west' });

    const view = await call(panel, 'GET', `/locations/${String(body.attributes.id)}`, headers);
    expect(view.statusCode).toBe(200);
    expect(locationSchema.parse(view.json()).attributes.short).toBe('inhouse');
    expect(Object.keys(view.json())).toEqual(['object', 'attributes']);

    const page = locationListSchema.parse((await call(panel, 'GET', '/locations?per_page=1', headers)).json());
    expect(page.meta.pagination).toMatchObject({ total: 2, count: 1, per_page: 1, total_pages: 2 });
    const filtered = locationListSchema.parse((await call(panel, 'GET', '/locations?filter[short]=west', headers)).json());
    expect(filtered.data.map((l) => l.attributes.short)).toEqual(['eu-west']);
    const newest = locationListSchema.parse((await call(panel, 'GET', '/locations?sort=-id', headers)).json());
    expect(newest.data.map((l) => l.attributes.short)).toEqual(['eu-west', 'inhouse']);
    expect((await call(panel, 'GET', '/locations?filter[id]=1', headers)).statusCode).toBe(400);

    for (const missing of ['/locations/nil', '/locations/999']) {
      const res = await call(panel, 'GET', missing, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0]).toMatchObject({ code: 'NotFoundHttpException', detail: 'The requested resource does not exist on this server.' });
    }
    const events = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).execute();
    expect(events.map((e) => e.event)).toEqual(['admin:location.create', 'admin:location.create']);
  });

  it('validates every field of a new location and makes nothing when refused', async ({ panel }) => {
    const { headers } = await adminKey(panel);
    await call(panel, 'POST', '/locations', headers, { short: 'taken' });
    const cases: [unknown, string][] = [
      [{}, 'short'],
      [{ short: '' }, 'short'],
      [{ short: 'x'.repeat(61) }, 'short'],
      [{ short: 42 }, 'short'],
      [{ short: 'ok', long: 'x'.repeat(192) }, 'long'],
      [{ short: 'ok', long: 7 }, 'long'],
      [{ short: 'taken' }, 'short'],
    ];
    for (const [payload, field] of cases) {
      const res = await call(panel, 'POST', '/locations', headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors[0].meta.source_field).toBe(field);
    }
    expect(await locationCount(panel)).toBe(1);
    // Fields the reference does not take are dropped.
    const extra = await call(panel, 'POST', '/locations', headers, { short: 'eu', id: 999, created_at: '2000-01-01' });
    expect(extra.json().attributes).toMatchObject({ short: 'eu', long: null, created_at: '2026-03-01T12:00:00.000Z' });
    expect(extra.json().attributes.id).not.toBe(999);
  });

  it('changes a location with PATCH (the same rules; its own short is no clash)', async ({ panel }) => {
    const { headers } = await adminKey(panel);
    const id = String((await call(panel, 'POST', '/locations', headers, { short: 'a' })).json().attributes.id);
    await call(panel, 'POST', '/locations', headers, { short: 'b' });
    panel.clock.advance(60_000);
    const res = await call(panel, 'PATCH', `/locations/${id}`, headers, { short: 'new inhouse', long: 'This is my new inhouse location' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attributes).toMatchObject({
      short: 'new inhouse',
      long: 'This is my new inhouse location',
      updated_at: '2026-03-01T12:01:00.000Z',
    });
    expect((await call(panel, 'PATCH', `/locations/${id}`, headers, { short: 'new inhouse' })).statusCode).toBe(200);
    const clash = await call(panel, 'PATCH', `/locations/${id}`, headers, { short: 'b' });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors[0].meta.source_field).toBe('short');
    // Said as the form labels the field.
    expect(clash.json().errors[0].detail).toBe('The short code has already been taken.');
    expect((await call(panel, 'PATCH', `/locations/${id}`, headers, { long: 'no short' })).statusCode).toBe(422);
    expect((await call(panel, 'PATCH', '/locations/999', headers, { short: 'c' })).statusCode).toBe(404);
    const events = await panel.db.selectFrom('activity_logs').select('event').where('event', '=', 'admin:location.update').execute();
    expect(events).toHaveLength(2);
  });

  it('deletes an empty location (204) and refuses one with nodes, leaving everything', async ({ panel }) => {
    const { headers } = await adminKey(panel);
    const empty = String((await call(panel, 'POST', '/locations', headers, { short: 'empty' })).json().attributes.id);
    const used = (await call(panel, 'POST', '/locations', headers, { short: 'used' })).json().attributes.id as number;
    const node = await panel.remoteNode('eu-1');
    await panel.db.updateTable('nodes').set({ location_id: used }).where('id', '=', node.id).execute();

    const refused = await call(panel, 'DELETE', `/locations/${String(used)}`, headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      code: 'HasActiveNodesException',
      detail: 'Cannot delete a location that has active nodes attached to it.',
    });
    expect(await panel.db.selectFrom('locations').select('short').where('id', '=', used).executeTakeFirst()).toEqual({ short: 'used' });

    const gone = await call(panel, 'DELETE', `/locations/${empty}`, headers);
    expect(gone.statusCode).toBe(204);
    expect((await call(panel, 'GET', `/locations/${empty}`, headers)).statusCode).toBe(404);
    const events = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', '=', 'admin:location.delete').execute();
    expect(events.map((e) => JSON.parse(e.properties) as unknown)).toEqual([{ short: 'empty' }]);
  });

  it('includes nodes and servers, and a null resource where the key may not read them', async ({ panel }) => {
    const { admin, headers } = await adminKey(panel);
    const location = (await call(panel, 'POST', '/locations', headers, { short: 'here' })).json().attributes.id as number;
    const server = await panel.server(admin);
    await panel.db.updateTable('nodes').set({ location_id: location }).where('id', '=', server.node_id).execute();

    const res = await call(panel, 'GET', `/locations/${String(location)}?include=servers,nodes,bogus`, headers);
    expect(res.statusCode, res.body).toBe(200);
    const relationships = locationSchema.parse(res.json()).attributes.relationships ?? {};
    expect(Object.keys(relationships).sort()).toEqual(['nodes', 'servers']);
    expect(relationships.nodes).toMatchObject({
      object: 'list',
      data: [{ object: 'node', attributes: { id: server.node_id, location_id: location } }],
    });
    expect(relationships.servers).toMatchObject({ object: 'list', data: [{ object: 'server', attributes: { id: server.id, uuid: server.uuid } }] });

    const narrow = await panel.applicationHeaders(admin, { locations: 1 });
    const limited = await call(panel, 'GET', `/locations?include=nodes`, narrow);
    expect(limited.json().data[0].attributes.relationships).toEqual({ nodes: { object: 'null_resource', attributes: null } });
  });

  it('keeps locations to keys holding them: none is 403, read cannot write, a client key is 401', async ({ panel }) => {
    const { admin } = await adminKey(panel);
    const none = await panel.applicationHeaders(admin, { nodes: 3 });
    const read = await panel.applicationHeaders(admin, { locations: 1 });
    expect((await call(panel, 'GET', '/locations', none)).statusCode).toBe(403);
    expect((await call(panel, 'GET', '/locations', read)).statusCode).toBe(200);
    expect((await call(panel, 'POST', '/locations', read, { short: 'nope' })).statusCode).toBe(403);
    expect((await call(panel, 'POST', '/locations', await panel.bearerHeaders(admin), { short: 'nope' })).statusCode).toBe(401);
    const user = await panel.user();
    expect((await call(panel, 'POST', '/locations', await panel.sessionHeaders(user), { short: 'nope' })).statusCode).toBe(403);
    // A root admin's session reaches it (the admin area).
    expect((await call(panel, 'POST', '/locations', await panel.sessionHeaders(admin), { short: 'yes' })).statusCode).toBe(201);
    expect((await panel.db.selectFrom('locations').select('short').execute()).map((l) => l.short)).not.toContain('nope');
  });
});
