import { describe, expect } from 'vitest';
import { serverListSchema } from '../../src/contract';
import type { UserRow } from '../db/schema';
import { findProgram } from '../daemon/local/sandbox';
import { test } from '../test/fixtures';

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('list', async ({ panel }) => async (user: UserRow, query = '') => {
    const res = await panel.app.inject({ method: 'GET', url: `/api/client${query}`, headers: await panel.bearerHeaders(user) });
    return res;
  })
  .extend('names', async ({ list }) => async (user: UserRow, query = ''): Promise<string[]> => {
    const res = await list(user, query);
    expect(res.statusCode).toBe(200);
    return serverListSchema.parse(res.json()).data.map((s) => s.attributes.name);
  });

describe('GET /api/client', () => {
  it('says what a server on the panel’s own node runs with: the host’s program, and whether installing lays out its files', async ({
    panel,
    owner,
    list,
  }) => {
    // The harness's servers are Paper's: `java -jar …`, an egg that installs nothing.
    await panel.server(owner, { name: 'Paper' });
    const res = await list(owner);
    const runtime = serverListSchema.parse(res.json()).data[0]?.attributes.aerie_runtime;
    expect(runtime).toEqual({ program: 'java', program_path: findProgram('java'), installs_files: false });
  });

  it('answers 401 without credentials', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AuthenticationException');
  });

  it('lists owned and shared servers by default, in id order', async ({ panel, owner, names }) => {
    const other = await panel.user();
    await panel.server(owner, { name: 'Mine' });
    const shared = await panel.server(other, { name: 'Shared' });
    await panel.server(other, { name: 'Theirs' });
    await panel.subuser(shared, owner, ['control.console']);
    expect(await names(owner)).toEqual(['Mine', 'Shared']);
  });

  it('lists only owned servers with type=owner', async ({ panel, owner, names }) => {
    const other = await panel.user();
    await panel.server(owner, { name: 'Mine' });
    const shared = await panel.server(other, { name: 'Shared' });
    await panel.subuser(shared, owner, []);
    expect(await names(owner, '?type=owner')).toEqual(['Mine']);
  });

  // attacks T-AZ-1
  it("shows a subuser only the servers shared with them, whatever the scope or filter (no listing other tenants' servers)", async ({
    panel,
    owner,
    names,
  }) => {
    const sub = await panel.user();
    const s1 = await panel.server(owner, { name: 'S1' });
    const s2 = await panel.server(owner, { name: 'S2' });
    await panel.subuser(s1, sub, ['file.read']);
    expect(await names(sub)).toEqual(['S1']);
    expect(await names(sub, '?type=owner')).toEqual([]);
    expect(await names(sub, '?type=admin')).toEqual([]);
    expect(await names(sub, '?type=admin-all')).toEqual([]);
    expect(await names(sub, `?filter[*]=${s2.uuid}`)).toEqual([]);
    expect(await names(sub, '?filter[*]=S2')).toEqual([]);
  });

  // attacks T-AZ-1
  it("gives a stranger nothing, even searching for the uuid of another user's server", async ({ panel, owner, names }) => {
    const stranger = await panel.user();
    const server = await panel.server(owner, { name: 'Private' });
    expect(await names(stranger)).toEqual([]);
    expect(await names(stranger, `?filter[*]=${server.uuid}`)).toEqual([]);
    expect(await names(stranger, `?filter[uuid]=${server.uuid}`)).toEqual([]);
  });

  it('lists for an admin with type=admin only servers they neither own nor share', async ({ panel, owner, names }) => {
    const admin = await panel.user({ admin: true });
    await panel.server(admin, { name: 'AdminOwn' });
    const shared = await panel.server(owner, { name: 'AdminShared' });
    await panel.server(owner, { name: 'Foreign' });
    await panel.subuser(shared, admin, []);
    expect(await names(admin, '?type=admin')).toEqual(['Foreign']);
  });

  it('lists every server for an admin with type=admin-all', async ({ panel, owner, names }) => {
    const admin = await panel.user({ admin: true });
    await panel.server(admin, { name: 'A' });
    await panel.server(owner, { name: 'B' });
    expect(await names(admin, '?type=admin-all')).toEqual(['A', 'B']);
  });

  it("names each server's owner to an admin only (an Aerie extension field)", async ({ panel, owner, list }) => {
    const admin = await panel.user({ admin: true });
    await panel.server(owner, { name: 'B' });
    const all = serverListSchema.parse((await list(admin, '?type=admin-all')).json());
    expect(all.data[0]?.attributes.aerie_owner).toEqual({ username: owner.username, email: owner.email });
    const own = serverListSchema.parse((await list(owner)).json());
    expect(own.data[0]?.attributes).not.toHaveProperty('aerie_owner');
  });

  it('filters by name, case-insensitively and as a contains match', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: 'Survival World' });
    await panel.server(owner, { name: 'Creative' });
    expect(await names(owner, '?filter[name]=VIVAL')).toEqual(['Survival World']);
  });

  it('treats % and _ in filters literally', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: '100% fun' });
    await panel.server(owner, { name: 'abc' });
    await panel.server(owner, { name: 'a_c' });
    expect(await names(owner, '?filter[name]=%25')).toEqual(['100% fun']);
    expect(await names(owner, '?filter[name]=a_c')).toEqual(['a_c']);
    expect(await names(owner, '?filter[*]=_')).toEqual(['a_c']);
  });

  it('filters by description and external id', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: 'One', description: 'Modded pack', externalId: 'ext-123' });
    await panel.server(owner, { name: 'Two', description: 'Vanilla' });
    expect(await names(owner, '?filter[description]=modded')).toEqual(['One']);
    expect(await names(owner, '?filter[external_id]=EXT-1')).toEqual(['One']);
  });

  it('filters by uuid fragment', async ({ panel, owner, names }) => {
    const one = await panel.server(owner, { name: 'One' });
    await panel.server(owner, { name: 'Two' });
    expect(await names(owner, `?filter[uuid]=${one.uuid.slice(9, 23)}`)).toEqual(['One']);
  });

  it('searches uuid prefix, short id, external id and name with filter[*]', async ({ panel, owner, names }) => {
    const one = await panel.server(owner, { name: 'Alpha', externalId: 'ext123' });
    await panel.server(owner, { name: 'Beta' });
    expect(await names(owner, `?filter[*]=${one.uuid.slice(0, 12)}`)).toEqual(['Alpha']);
    expect(await names(owner, `?filter[*]=${one.uuid_short}`)).toEqual(['Alpha']);
    expect(await names(owner, '?filter[*]=ext123')).toEqual(['Alpha']);
    expect(await names(owner, '?filter[*]=bet')).toEqual(['Beta']);
  });

  it('does not search the description with filter[*]', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: 'Alpha', description: 'needle' });
    expect(await names(owner, '?filter[*]=needle')).toEqual([]);
  });

  it('searches allocations by IP, IP:port prefix and :port prefix', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: 'A', ip: '192.168.1.1', port: 25565 });
    await panel.server(owner, { name: 'B', ip: '192.168.1.1', port: 25570 });
    await panel.server(owner, { name: 'C', ip: '10.0.0.1', port: 30000 });
    expect(await names(owner, '?filter[*]=192.168.1.1')).toEqual(['A', 'B']);
    expect(await names(owner, '?filter[*]=192.168.1.1:25565')).toEqual(['A']);
    expect(await names(owner, '?filter[*]=:255')).toEqual(['A', 'B']);
  });

  it('finds a server by a bare port, exactly, besides names holding those digits', async ({ panel, owner, names }) => {
    await panel.server(owner, { name: 'A', ip: '10.0.0.1', port: 25565 });
    await panel.server(owner, { name: 'B', ip: '10.0.0.1', port: 25566 });
    await panel.server(owner, { name: 'Lobby 25566', ip: '10.0.0.1', port: 30000 });
    expect(await names(owner, '?filter[*]=25566')).toEqual(['B', 'Lobby 25566']);
    expect(await names(owner, '?filter[*]=2556')).toEqual(['Lobby 25566']);
  });

  it('pages 60 servers: page 2 of 50 holds 10 with links back', async ({ panel, owner, list }) => {
    for (let i = 0; i < 60; i += 1) await panel.server(owner, { name: `S${String(i).padStart(2, '0')}` });
    const res = await list(owner, '?page=2&filter[name]=S');
    expect(res.statusCode).toBe(200);
    const body = serverListSchema.parse(res.json());
    expect(body.data).toHaveLength(10);
    expect(body.data[0]?.attributes.name).toBe('S50');
    expect(body.meta.pagination).toEqual({
      total: 60,
      count: 10,
      per_page: 50,
      current_page: 2,
      total_pages: 2,
      links: { previous: '/api/client?page=1&filter%5Bname%5D=S' },
    });
  });

  it('gives an empty list one page and no links', async ({ owner, list }) => {
    const res = await list(owner);
    expect(serverListSchema.parse(res.json()).meta.pagination).toEqual({
      total: 0,
      count: 0,
      per_page: 50,
      current_page: 1,
      total_pages: 1,
      links: {},
    });
  });

  it('links to the next page while there is one', async ({ panel, owner, list }) => {
    for (let i = 0; i < 3; i += 1) await panel.server(owner);
    const res = await list(owner, '?per_page=2');
    expect(serverListSchema.parse(res.json()).meta.pagination.links).toEqual({ next: expect.stringMatching(/\/api\/client\?per_page=2&page=2$/) });
  });

  // attacks T-AZ-1 (per_page=100000)
  it('rejects per_page above 100 with 422 on per_page', async ({ owner, list }) => {
    const res = await list(owner, '?per_page=101');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field: 'per_page' } });
  });

  it('rejects an unknown filter with 400 InvalidFilterQuery', async ({ owner, list }) => {
    const res = await list(owner, '?filter[owner_id]=1');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ code: 'InvalidFilterQuery', status: '400' });
  });

  it('rejects an unknown type with 422 on type', async ({ owner, list }) => {
    const res = await list(owner, '?type=everything');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0].source).toEqual({ field: 'type' });
  });
});
