import { describe, expect } from 'vitest';
import { loadConfig } from '../config';
import type { ServerRow } from '../db/schema';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { watchSyncs } from '../test/sync-watch';

/*
 * The network tab's API: the allocations of a server, their notes, the primary one, new ports from
 * the node's range up to the limit (parallel requests included), giving one back; permissions,
 * 404 across servers, activity entries and the configuration the node is given.
 */

type Method = 'GET' | 'POST' | 'DELETE';

async function setup(panel: TestPanel) {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const headers = await panel.bearerHeaders(owner);
  const base = `/api/client/servers/${server.uuid}/network/allocations`;
  const call = (method: Method, path = '', payload?: object, as = headers) =>
    panel.app.inject({ method, url: base + path, headers: as, ...(payload ? { payload } : {}) });
  const rows = () => panel.db.selectFrom('allocations').selectAll().where('server_id', '=', server.id).orderBy('port').execute();
  const events = async () =>
    (
      await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', 'like', 'server:allocation.%').orderBy('id').execute()
    ).map((r) => ({ event: r.event, properties: JSON.parse(r.properties) as unknown }));
  // What the node took in after each sync the panel made.
  const pushed = watchSyncs(panel.daemon, server.uuid).taken;
  return { owner, server, headers, call, rows, events, pushed };
}

const it = test.extend('net', async ({ panel }) => setup(panel));

const setLimit = (panel: TestPanel, server: ServerRow, limit: number | null) =>
  panel.db.updateTable('servers').set({ allocation_limit: limit }).where('id', '=', server.id).execute();

describe('network allocations', () => {
  it('lists every allocation of the server, the primary marked', async ({ net }) => {
    const res = await net.call('GET');
    expect(res.statusCode).toBe(200);
    const [primary] = await net.rows();
    expect(res.json()).toEqual({
      object: 'list',
      data: [
        { object: 'allocation', attributes: { id: primary?.id, ip: '127.0.0.1', ip_alias: '127.0.0.1', port: 25565, notes: '', is_default: true } },
      ],
    });
  });

  it('creates the next free ports of the range up to the limit, then a 400; the node gets each', async ({ panel, net }) => {
    const first = await net.call('POST');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ object: 'allocation', attributes: { ip: '127.0.0.1', port: 25566, is_default: false, notes: '' } });
    expect((await net.call('POST')).json().attributes.port).toBe(25567);
    const full = await net.call('POST');
    expect(full.statusCode).toBe(400);
    expect(full.json().errors[0]).toEqual({
      code: 'DisplayException',
      status: '400',
      detail: 'Cannot assign additional allocations to this server: limit has been reached.',
    });
    expect((await net.rows()).map((r) => r.port)).toEqual([25565, 25566, 25567]);
    expect(net.pushed.at(-1)?.settings.allocations.mappings).toEqual({ '127.0.0.1': [25565, 25566, 25567] });
    expect(await net.events()).toEqual([
      { event: 'server:allocation.create', properties: { allocation: '127.0.0.1:25566' } },
      { event: 'server:allocation.create', properties: { allocation: '127.0.0.1:25567' } },
    ]);
    // No limit set: none may be added (the reference compares null <= count).
    await setLimit(panel, net.server, null);
    expect((await net.call('POST')).statusCode).toBe(400);
  });

  it('takes a free port the node already has before making one, skipping ports other servers hold', async ({ panel, net }) => {
    const other = await panel.server(net.owner); // holds 25566
    await panel.db
      .insertInto('allocations')
      .values({ node_id: other.node_id, ip: '127.0.0.1', ip_alias: null, port: 25567, server_id: null, notes: null })
      .execute();
    const res = await net.call('POST');
    expect(res.json().attributes.port).toBe(25567);
    expect(await panel.db.selectFrom('allocations').select('id').where('port', '=', 25567).execute()).toHaveLength(1);
    expect((await net.call('POST')).json().attributes.port).toBe(25568);
  });

  it('answers a clear 400 when the range has no free port left', async ({ makePanel }) => {
    const panel = await makePanel({ allocationPorts: { start: 25565, end: 25566 } });
    const net = await setup(panel);
    await panel.server(net.owner); // 25566
    const res = await net.call('POST');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ code: 'DisplayException', detail: expect.stringContaining('no free ports') });
    expect(await net.rows()).toHaveLength(1);
    expect(await net.events()).toEqual([]);
  });

  it('never passes the limit nor hands one port out twice under 20 parallel creates (T-RACE-1)', async ({ panel, net }) => {
    await setLimit(panel, net.server, 5);
    const other = await panel.server(net.owner);
    const otherHeaders = await panel.bearerHeaders(net.owner);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? net.call('POST')
          : panel.app.inject({ method: 'POST', url: `/api/client/servers/${other.uuid}/network/allocations`, headers: otherHeaders }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 400)).toBe(true);
    expect(await net.rows()).toHaveLength(5);
    expect(ok).toBe(4 + 2);
    const ports = (await panel.db.selectFrom('allocations').select('port').execute()).map((r) => r.port);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('sets notes, logging only a change; null clears; past 256 characters is a 422', async ({ net }) => {
    const [primary] = await net.rows();
    const path = `/${primary?.id}`;
    const res = await net.call('POST', path, { notes: 'Dynmap' });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes).toMatchObject({ notes: 'Dynmap', is_default: true });
    expect((await net.call('POST', path, { notes: 'Dynmap' })).statusCode).toBe(200);
    expect((await net.call('POST', path, { notes: null })).json().attributes.notes).toBe('');
    expect((await net.rows())[0]?.notes).toBeNull();

    const long = await net.call('POST', path, { notes: 'x'.repeat(257) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0]).toMatchObject({ source: { field: 'notes' } });
    expect((await net.call('POST', path, {})).statusCode).toBe(422);
    expect(await net.events()).toEqual([
      { event: 'server:allocation.notes', properties: { allocation: '127.0.0.1:25565', old: null, new: 'Dynmap' } },
      { event: 'server:allocation.notes', properties: { allocation: '127.0.0.1:25565', old: 'Dynmap', new: null } },
    ]);
  });

  it('counts note characters as the reference does (code points): 256 fit, 257 do not, multi-byte or not', async ({ net }) => {
    const [primary] = await net.rows();
    const path = `/${primary?.id}`;
    for (const char of ['\u{1F3AE}', 'é', 'x']) {
      const fits = await net.call('POST', path, { notes: char.repeat(256) });
      expect(fits.statusCode, char).toBe(200);
      expect(fits.json().attributes.notes).toBe(char.repeat(256));
      const over = await net.call('POST', path, { notes: char.repeat(257) });
      expect(over.statusCode, char).toBe(422);
      expect(over.json().errors[0]).toMatchObject({ source: { field: 'notes' } });
    }
    expect((await net.rows())[0]?.notes).toBe('x'.repeat(256));
  });

  it('makes another allocation primary; the node gets the new default', async ({ panel, net }) => {
    const created = (await net.call('POST')).json().attributes;
    const res = await net.call('POST', `/${created.id}/primary`);
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes).toMatchObject({ id: created.id, is_default: true });
    const list = (await net.call('GET'))
      .json()
      .data.map((a: { attributes: { port: number; is_default: boolean } }) => [a.attributes.port, a.attributes.is_default]);
    expect(list).toEqual([
      [25565, false],
      [25566, true],
    ]);
    expect(net.pushed.at(-1)?.settings.allocations.default).toEqual({ ip: '127.0.0.1', port: 25566 });
    expect((await panel.db.selectFrom('servers').select('allocation_id').where('id', '=', net.server.id).executeTakeFirst())?.allocation_id).toBe(
      created.id,
    );
    expect((await net.events()).at(-1)).toEqual({ event: 'server:allocation.primary', properties: { allocation: '127.0.0.1:25566' } });
  });

  it('deletes an allocation back to the node, its notes cleared; never the primary, never without a limit', async ({ panel, net }) => {
    const created = (await net.call('POST')).json().attributes;
    await net.call('POST', `/${created.id}`, { notes: 'gone soon' });
    const [primary] = await net.rows();

    const keep = await net.call('DELETE', `/${primary?.id}`);
    expect(keep.statusCode).toBe(400);
    expect(keep.json().errors[0]).toMatchObject({ code: 'DisplayException', detail: 'You cannot delete the primary allocation for this server.' });

    await setLimit(panel, net.server, null);
    const noLimit = await net.call('DELETE', `/${created.id}`);
    expect(noLimit.json().errors[0]).toMatchObject({
      status: '400',
      detail: 'You cannot delete allocations for this server: no allocation limit is set.',
    });
    await setLimit(panel, net.server, 3);

    expect((await net.call('DELETE', `/${created.id}`)).statusCode).toBe(204);
    expect(await panel.db.selectFrom('allocations').selectAll().where('id', '=', created.id).executeTakeFirst()).toMatchObject({
      server_id: null,
      notes: null,
    });
    expect(net.pushed.at(-1)?.settings.allocations.mappings).toEqual({ '127.0.0.1': [25565] });
    expect((await net.events()).at(-1)).toEqual({ event: 'server:allocation.delete', properties: { allocation: '127.0.0.1:25566' } });
    // It is free again: the next create takes it back.
    expect((await net.call('POST')).json().attributes).toMatchObject({ id: created.id, port: 25566 });
  });

  // attacks T-AZ-2 (allocations)
  it("answers 404 for another server's allocation, a missing one and a non-numeric id, changing nothing", async ({ panel, net }) => {
    const stranger = await panel.user();
    const theirs = await panel.server(stranger);
    const their = await panel.db.selectFrom('allocations').selectAll().where('server_id', '=', theirs.id).executeTakeFirstOrThrow();
    for (const [method, path, body] of [
      ['POST', `/${their.id}`, { notes: 'mine now' }],
      ['POST', `/${their.id}/primary`, undefined],
      ['DELETE', `/${their.id}`, undefined],
      ['POST', '/999999', { notes: 'x' }],
      ['DELETE', '/abc', undefined],
    ] as const) {
      const res = await net.call(method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().errors[0].status).toBe('404');
    }
    expect(await panel.db.selectFrom('allocations').selectAll().where('id', '=', their.id).executeTakeFirst()).toEqual(their);
    expect((await net.rows())[0]?.id).toBe(net.server.allocation_id);
    expect(await net.events()).toEqual([]);
    // A stranger does not see the server at all.
    expect((await net.call('GET', '', undefined, await panel.bearerHeaders(stranger))).statusCode).toBe(404);
  });

  it('holds subusers to their permission on each route', async ({ panel, net }) => {
    const created = (await net.call('POST')).json().attributes;
    const routes = {
      'allocation.read': ['GET', ''],
      'allocation.create': ['POST', ''],
      'allocation.update': ['POST', `/${created.id}/primary`],
      'allocation.delete': ['DELETE', `/${created.id}`],
    } as const;
    const notes = ['POST', `/${created.id}`, { notes: 'n' }] as const;
    for (const granted of Object.keys(routes) as (keyof typeof routes)[]) {
      const sub = await panel.user();
      await panel.subuser(net.server, sub, [granted]);
      const as = await panel.bearerHeaders(sub);
      for (const [permission, [method, path]] of Object.entries(routes)) {
        if (permission === granted) continue;
        expect((await net.call(method, path, undefined, as)).statusCode, `${granted} → ${permission}`).toBe(403);
      }
      expect((await net.call(notes[0], notes[1], notes[2], as)).statusCode).toBe(granted === 'allocation.update' ? 200 : 403);
    }
    const reader = await panel.user();
    await panel.subuser(net.server, reader, ['allocation.read']);
    expect((await net.call('GET', '', undefined, await panel.bearerHeaders(reader))).json().data).toHaveLength(2);
    const creator = await panel.user();
    await panel.subuser(net.server, creator, ['allocation.create']);
    expect((await net.call('POST', '', undefined, await panel.bearerHeaders(creator))).statusCode).toBe(200);
    const deleter = await panel.user();
    await panel.subuser(net.server, deleter, ['allocation.delete']);
    expect((await net.call('DELETE', `/${created.id}`, undefined, await panel.bearerHeaders(deleter))).statusCode).toBe(204);
  });
});

describe('PANEL_ALLOCATION_PORTS', () => {
  test('defaults to 25565-25665 and refuses a range that is not one', () => {
    expect(loadConfig({}).allocationPorts).toEqual({ start: 25565, end: 25665 });
    expect(loadConfig({ PANEL_ALLOCATION_PORTS: '30000-30009' }).allocationPorts).toEqual({ start: 30000, end: 30009 });
    for (const bad of ['30009-30000', '0-10', '25565-70000', '25565', 'a-b', '25565-25665,26000-26100']) {
      expect(() => loadConfig({ PANEL_ALLOCATION_PORTS: bad }), bad).toThrow(/PANEL_ALLOCATION_PORTS/);
    }
  });
});
