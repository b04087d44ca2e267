import { describe, expect } from 'vitest';
import { nodeAllocationListSchema } from '../../src/contract/nodes';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * A node's allocations in the application API (issue 25 §2, §4), with the reference's
 * AssignmentService rules: ports above 1024, ranges of at most 1000, IPv4 blocks /27-/32,
 * duplicates skipped, any bad entry refusing the whole request; no deleting an allocation a
 * server holds.
 */

type Headers = Record<string, string>;
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function setup(panel: TestPanel) {
  const admin = await panel.user({ admin: true });
  const headers = await panel.applicationHeaders(admin);
  const node = await panel.remoteNode('wings-1');
  const rows = () =>
    panel.db.selectFrom('allocations').select(['ip', 'port', 'ip_alias']).where('node_id', '=', node.id).orderBy('ip').orderBy('port').execute();
  return { admin, headers, node, rows, base: `/nodes/${String(node.id)}/allocations` };
}

describe('the application API: a node’s allocations', () => {
  it('adds an address’s ports and ranges (204), skipping those the node has, and lists them paged and filtered', async ({ panel }) => {
    const { headers, rows, base } = await setup(panel);
    const made = await call(panel, 'POST', base, headers, { ip: '10.0.0.5', alias: 'play.example.com', ports: ['25565', '25570-25580'] });
    expect(made.statusCode, made.body).toBe(204);
    expect(made.body).toBe('');
    expect(await rows()).toHaveLength(12);
    expect((await rows())[0]).toEqual({ ip: '10.0.0.5', port: 25565, ip_alias: 'play.example.com' });
    expect((await call(panel, 'POST', base, headers, { ip: '10.0.0.5', ports: ['25565', '25581'] })).statusCode).toBe(204);
    expect(await rows()).toHaveLength(13);
    expect((await call(panel, 'POST', base, headers, { ip: '10.0.1.1/30', ports: ['30000'] })).statusCode).toBe(204);
    expect((await rows()).filter((r) => r.port === 30000).map((r) => r.ip)).toEqual(['10.0.1.0', '10.0.1.1', '10.0.1.2', '10.0.1.3']);

    const page = nodeAllocationListSchema.parse((await call(panel, 'GET', `${base}?per_page=5`, headers)).json());
    expect(page.meta.pagination).toMatchObject({ total: 17, count: 5, per_page: 5 });
    expect(page.data[0]).toEqual({
      object: 'allocation',
      attributes: { id: expect.any(Number), ip: '10.0.0.5', alias: 'play.example.com', port: 25565, notes: null, assigned: false },
    });
    const byIp = nodeAllocationListSchema.parse((await call(panel, 'GET', `${base}?filter[ip]=10.0.1.2`, headers)).json());
    expect(byIp.data.map((a) => a.attributes.port)).toEqual([30000]);
    const free = nodeAllocationListSchema.parse((await call(panel, 'GET', `${base}?filter[server_id]=none&per_page=100`, headers)).json());
    expect(free.meta.pagination.total).toBe(17);
    const events = await panel.db
      .selectFrom('activity_logs')
      .select(['event', 'properties'])
      .where('event', '=', 'admin:allocation.create')
      .execute();
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[0]?.properties ?? '{}')).toMatchObject({ summary: '10.0.0.5:25565,25570-25580', node: 'wings-1', added: 12 });
  });

  it('refuses bad addresses, ports and bodies with the reference’s errors, adding nothing', async ({ panel }) => {
    const { headers, rows, base } = await setup(panel);
    const refusals: [unknown, number, string][] = [
      [{ ip: '10.0.0.5', ports: ['25565', '80'] }, 400, 'PortOutOfRangeException'],
      [{ ip: '10.0.0.5', ports: ['1024'] }, 400, 'PortOutOfRangeException'],
      [{ ip: '10.0.0.5', ports: ['65536'] }, 400, 'PortOutOfRangeException'],
      [{ ip: '10.0.0.5', ports: ['1000-1500'] }, 400, 'PortOutOfRangeException'],
      [{ ip: '10.0.0.5', ports: ['25565', '20000-21000'] }, 400, 'TooManyPortsInRangeException'],
      [{ ip: '10.0.0.5', ports: ['25565', 'abc'] }, 400, 'InvalidPortMappingException'],
      [{ ip: '10.0.0.5', ports: ['25565-'] }, 400, 'InvalidPortMappingException'],
      [{ ip: '10.0.0.0/26', ports: ['25565'] }, 400, 'CidrOutOfRangeException'],
      [{ ip: 'node.example.com', ports: ['25565'] }, 400, 'DisplayException'],
      [{ ip: '999.1.1.1', ports: ['25565'] }, 400, 'DisplayException'],
      [{ ports: ['25565'] }, 422, 'ip'],
      [{ ip: '10.0.0.5' }, 422, 'ports'],
      [{ ip: '10.0.0.5', ports: [] }, 422, 'ports'],
      [{ ip: '10.0.0.5', ports: [25565] }, 422, 'ports.0'],
      [{ ip: '10.0.0.5', ports: ['25565'], alias: 'x'.repeat(192) }, 422, 'alias'],
    ];
    for (const [payload, status, what] of refusals) {
      const res = await call(panel, 'POST', base, headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      const error = res.json().errors[0];
      if (status === 422) expect(error.meta.source_field).toBe(what);
      else expect(error.code).toBe(what);
    }
    expect(await rows()).toEqual([]);
    expect((await call(panel, 'POST', '/nodes/999/allocations', headers, { ip: '10.0.0.5', ports: ['25565'] })).statusCode).toBe(404);
  });

  it('deletes a free allocation (204) and refuses one a server holds or another node’s', async ({ panel }) => {
    const { admin, headers, node, base } = await setup(panel);
    // The panel's own node, with a server holding its primary allocation.
    await panel.db.updateTable('nodes').set({ maintenance_mode: 1 }).where('id', '=', node.id).execute();
    const server = await panel.server(admin);
    await call(panel, 'POST', base, headers, { ip: '10.0.0.5', ports: ['25565', '25566'] });
    const list = nodeAllocationListSchema.parse((await call(panel, 'GET', base, headers)).json()).data;
    const [first, second] = list.map((a) => a.attributes.id);
    await panel.db
      .updateTable('allocations')
      .set({ server_id: server.id })
      .where('id', '=', second ?? 0)
      .execute();

    const held = await call(panel, 'DELETE', `${base}/${String(second)}`, headers);
    expect(held.statusCode).toBe(400);
    expect(held.json().errors[0]).toMatchObject({ code: 'ServerUsingAllocationException' });
    const elsewhere = await call(panel, 'DELETE', `${base}/${String(server.allocation_id)}`, headers);
    expect(elsewhere.statusCode).toBe(404);
    expect((await call(panel, 'DELETE', `${base}/abc`, headers)).statusCode).toBe(404);
    expect(
      await panel.db
        .selectFrom('allocations')
        .select('id')
        .where('id', 'in', [second ?? 0, server.allocation_id ?? 0])
        .execute(),
    ).toHaveLength(2);

    expect((await call(panel, 'DELETE', `${base}/${String(first)}`, headers)).statusCode).toBe(204);
    const left = nodeAllocationListSchema.parse((await call(panel, 'GET', `${base}?include=server`, headers)).json()).data;
    expect(left.map((a) => a.attributes)).toMatchObject([
      { id: second, assigned: true, relationships: { server: { attributes: { id: server.id } } } },
    ]);
    const events = await panel.db
      .selectFrom('activity_logs')
      .select(['event', 'properties'])
      .where('event', '=', 'admin:allocation.delete')
      .execute();
    expect(events.map((e) => JSON.parse(e.properties) as unknown)).toEqual([{ allocation: '10.0.0.5:25565', node: 'wings-1' }]);
  });

  it('keeps allocations to keys holding them: nodes alone is 403, read cannot add, a client key is 401', async ({ panel }) => {
    const { admin, rows, base } = await setup(panel);
    const body = { ip: '10.0.0.5', ports: ['25565'] };
    expect((await call(panel, 'GET', base, await panel.applicationHeaders(admin, { nodes: 3 }))).statusCode).toBe(403);
    const read = await panel.applicationHeaders(admin, { allocations: 1 });
    expect((await call(panel, 'GET', base, read)).statusCode).toBe(200);
    expect((await call(panel, 'POST', base, read, body)).statusCode).toBe(403);
    expect((await call(panel, 'POST', base, await panel.bearerHeaders(admin), body)).statusCode).toBe(401);
    expect((await call(panel, 'POST', base, await panel.sessionHeaders(await panel.user()), body)).statusCode).toBe(403);
    expect(await rows()).toEqual([]);
  });

  it('gives new servers the allocations made through the API first; a node without them keeps its range', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const headers = await panel.applicationHeaders(admin);
    const first = await panel.server(admin);
    const local = first.node_id;
    const address = async (serverId: number) =>
      panel.db
        .selectFrom('allocations')
        .select(['ip', 'port', 'ip_alias'])
        .innerJoin('servers', 'servers.allocation_id', 'allocations.id')
        .where('servers.id', '=', serverId)
        .executeTakeFirst();
    // Before: the panel's range on 127.0.0.1 (PANEL_ALLOCATION_PORTS), as always.
    expect(await address(first.id)).toEqual({ ip: '127.0.0.1', port: panel.config.allocationPorts.start, ip_alias: null });

    expect(
      (
        await call(panel, 'POST', `/nodes/${String(local)}/allocations`, headers, {
          ip: '127.0.0.2',
          alias: 'game.example.com',
          ports: ['40001-40002'],
        })
      ).statusCode,
    ).toBe(204);
    const [second, third, fourth] = [await panel.server(admin), await panel.server(admin), await panel.server(admin)];
    expect(await address(second.id)).toEqual({ ip: '127.0.0.2', port: 40001, ip_alias: 'game.example.com' });
    expect(await address(third.id)).toEqual({ ip: '127.0.0.2', port: 40002, ip_alias: 'game.example.com' });
    // None free any more: the node's range again.
    expect(await address(fourth.id)).toEqual({ ip: '127.0.0.1', port: panel.config.allocationPorts.start + 1, ip_alias: null });
    const held = nodeAllocationListSchema.parse(
      (await call(panel, 'GET', `/nodes/${String(local)}/allocations?filter[ip]=127.0.0.2`, headers)).json(),
    );
    expect(held.data.map((a) => a.attributes.assigned)).toEqual([true, true]);
  });
});
