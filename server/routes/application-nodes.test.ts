import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { deployableNodeListSchema, nodeConfigurationSchema, nodeListSchema, nodeSchema } from '../../src/contract/nodes';
import { nodes } from '../db/repos';
import { nodeConfigYaml } from '../services/nodes';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/*
 * The application API's nodes (issue 25 §2, §4): the reference's `node` shape and StoreNodeRequest
 * rules, the Wings configuration (whose token the panel's remote API accepts), deployable nodes,
 * includes, and no deleting a node with servers or the panel's own node.
 */

type Headers = Record<string, string>;
const call = (panel: TestPanel, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function setup(panel: TestPanel) {
  const admin = await panel.user({ admin: true });
  const headers = await panel.applicationHeaders(admin);
  const location = (await call(panel, 'POST', '/locations', headers, { short: 'eu' })).json().attributes.id as number;
  return { admin, headers, location };
}

const nodeBody = (location: number, overrides: Record<string, unknown> = {}) => ({
  name: 'wings-1',
  location_id: location,
  fqdn: 'node1.example.com',
  scheme: 'https',
  memory: 8192,
  memory_overallocate: 0,
  disk: 50000,
  disk_overallocate: 0,
  daemon_listen: 8080,
  daemon_sftp: 2022,
  ...overrides,
});

describe('the application API: nodes', () => {
  it('creates a node (201) in the reference’s shape whose configuration carries a token the remote API accepts', async ({ panel }) => {
    const { headers, location } = await setup(panel);
    const made = await call(
      panel,
      'POST',
      '/nodes',
      headers,
      nodeBody(location, { upload_size: 256, behind_proxy: true, uuid: 'mine', daemon_token_id: 'x' }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const node = made.json();
    expect(Object.keys(node)).toEqual(['object', 'attributes', 'meta']);
    expect(node.attributes).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      public: true,
      name: 'wings-1',
      description: null,
      location_id: location,
      fqdn: 'node1.example.com',
      scheme: 'https',
      behind_proxy: true,
      maintenance_mode: false,
      memory: 8192,
      memory_overallocate: 0,
      disk: 50000,
      disk_overallocate: 0,
      upload_size: 256,
      daemon_listen: 8080,
      daemon_sftp: 2022,
      daemon_base: '/var/lib/pterodactyl/volumes',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      allocated_resources: { memory: 0, disk: 0 },
    });
    expect(node.meta.resource).toMatch(new RegExp(`/api/application/nodes/${String(node.attributes.id)}$`));
    expect(JSON.stringify(node)).not.toMatch(/token/);

    const res = await call(panel, 'GET', `/nodes/${String(node.attributes.id)}/configuration`, headers);
    expect(res.statusCode, res.body).toBe(200);
    const config = nodeConfigurationSchema.parse(res.json());
    const row = await nodes.findById(panel.db, node.attributes.id as number);
    if (!row) throw new Error('the node is not stored');
    // One builder: the CLI's YAML and the API's JSON say the same.
    expect(res.json()).toEqual(parse(nodeConfigYaml(row, panel.nodes, config.remote)));
    expect(config).toMatchObject({ uuid: node.attributes.uuid, api: { port: 8080, upload_limit: 256, ssl: { enabled: false } } });
    const remote = await panel.app.inject({ url: '/api/remote/servers', headers: { authorization: `Bearer ${config.token_id}.${config.token}` } });
    expect(remote.statusCode, remote.body).toBe(200);
    expect((await panel.db.selectFrom('activity_logs').select('event').where('event', '=', 'admin:node.create').execute()).length).toBe(1);
  });

  it('validates every field of a new node and makes nothing when refused', async ({ panel }) => {
    const { headers, location } = await setup(panel);
    const before = (await nodes.all(panel.db)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, 'name'],
      [{ name: 'bad/name' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'local' }, 'name'],
      [{ location_id: undefined }, 'location_id'],
      [{ location_id: 9999 }, 'location_id'],
      [{ fqdn: undefined }, 'fqdn'],
      [{ fqdn: 'bad host' }, 'fqdn'],
      [{ scheme: 'ftp' }, 'scheme'],
      [{ memory: 0 }, 'memory'],
      [{ memory: '1024' }, 'memory'],
      [{ memory_overallocate: -2 }, 'memory_overallocate'],
      [{ disk: undefined }, 'disk'],
      [{ disk_overallocate: undefined }, 'disk_overallocate'],
      [{ daemon_listen: 70000 }, 'daemon_listen'],
      [{ daemon_sftp: 0 }, 'daemon_sftp'],
      [{ upload_size: 1025 }, 'upload_size'],
      [{ daemon_base: 'relative/path' }, 'daemon_base'],
      [{ public: 'yes' }, 'public'],
    ];
    for (const [overrides, field] of cases) {
      const res = await call(panel, 'POST', '/nodes', headers, nodeBody(location, overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(res.json().errors.map((e: { meta: { source_field: string } }) => e.meta.source_field)).toContain(field);
    }
    expect((await nodes.all(panel.db)).length).toBe(before);
    expect((await call(panel, 'POST', '/nodes', headers, nodeBody(location))).statusCode).toBe(201);
    const twin = await call(panel, 'POST', '/nodes', headers, nodeBody(location));
    expect(twin.statusCode).toBe(422);
    expect(twin.json().errors[0].meta.source_field).toBe('name');
  });

  it('keeps nodes to keys holding them: read cannot create, none is 403, a client key is 401', async ({ panel }) => {
    const { admin, location } = await setup(panel);
    const read = await panel.applicationHeaders(admin, { nodes: 1 });
    expect((await call(panel, 'GET', '/nodes', read)).statusCode).toBe(200);
    expect((await call(panel, 'POST', '/nodes', read, nodeBody(location))).statusCode).toBe(403);
    expect((await call(panel, 'GET', '/nodes', await panel.applicationHeaders(admin, { locations: 3 }))).statusCode).toBe(403);
    expect((await call(panel, 'POST', '/nodes', await panel.bearerHeaders(admin), nodeBody(location))).statusCode).toBe(401);
    const user = await panel.user();
    expect((await call(panel, 'GET', '/nodes', await panel.sessionHeaders(user))).statusCode).toBe(403);
    expect(await nodes.findByName(panel.db, 'wings-1')).toBeUndefined();
  });

  it('lists nodes filtered and sorted with their includes, the panel’s own node among them', async ({ panel }) => {
    const { admin, headers, location } = await setup(panel);
    const server = await panel.server(admin);
    const remote = (await call(panel, 'POST', '/nodes', headers, nodeBody(location, { memory: 100 }))).json().attributes.id as number;
    const all = nodeListSchema.parse((await call(panel, 'GET', '/nodes', headers)).json());
    const local = all.data.find((n) => n.attributes.id === server.node_id);
    expect(local?.attributes).toMatchObject({ name: 'local', scheme: 'http', allocated_resources: { memory: server.memory, disk: server.disk } });
    expect(local?.attributes.location_id).toEqual(expect.any(Number));
    const named = nodeListSchema.parse((await call(panel, 'GET', '/nodes?filter[name]=wings', headers)).json());
    expect(named.data.map((n) => n.attributes.id)).toEqual([remote]);
    const bySize = nodeListSchema.parse((await call(panel, 'GET', '/nodes?sort=-memory', headers)).json());
    expect(bySize.data.map((n) => n.attributes.id)).toEqual([remote, server.node_id]);

    const included = await call(panel, 'GET', `/nodes/${String(server.node_id)}?include=allocations,location,servers`, headers);
    const relationships = nodeSchema.parse(included.json()).attributes.relationships ?? {};
    expect(relationships.allocations).toMatchObject({
      object: 'list',
      data: [{ object: 'allocation', attributes: { id: server.allocation_id, assigned: true } }],
    });
    expect(relationships.location).toMatchObject({ object: 'location', attributes: { short: 'default' } });
    expect(relationships.servers).toMatchObject({ object: 'list', data: [{ attributes: { uuid: server.uuid } }] });
    const narrow = await panel.applicationHeaders(admin, { nodes: 1 });
    const limited = nodeSchema.parse((await call(panel, 'GET', `/nodes/${String(remote)}?include=location,allocations`, narrow)).json());
    expect(limited.attributes.relationships).toEqual({
      allocations: { object: 'null_resource', attributes: null },
      location: { object: 'null_resource', attributes: null },
    });
    expect((await call(panel, 'GET', '/nodes/abc', headers)).statusCode).toBe(404);
  });

  it('lists the deployable nodes: public ones with room in the locations asked for', async ({ panel }) => {
    const { headers, location } = await setup(panel);
    const other = (await call(panel, 'POST', '/locations', headers, { short: 'us' })).json().attributes.id as number;
    const small = (await call(panel, 'POST', '/nodes', headers, nodeBody(location, { name: 'small', memory: 1024, disk: 1000 }))).json().attributes
      .id as number;
    const big = (
      await call(panel, 'POST', '/nodes', headers, nodeBody(other, { name: 'big', memory: 4096, disk: 1000, memory_overallocate: 50 }))
    ).json().attributes.id as number;
    await call(panel, 'POST', '/nodes', headers, nodeBody(other, { name: 'hidden', memory: 99999, disk: 99999, public: false }));
    const ids = async (query: string) => {
      const res = await call(panel, 'GET', `/nodes/deployable?${query}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      return deployableNodeListSchema.parse(res.json()).data.map((n) => n.attributes.id);
    };
    expect(await ids(`memory=2048&disk=100&location_ids[]=${String(location)}&location_ids[]=${String(other)}`)).toEqual([big]);
    expect(await ids(`memory=6000&disk=100&location_ids[]=${String(other)}`)).toEqual([big]);
    expect(await ids(`memory=512&disk=100&location_ids[]=${String(location)}`)).toEqual([small]);
    const paged = await call(
      panel,
      'GET',
      `/nodes/deployable?memory=1&disk=1&page=1&location_ids[]=${String(location)}&location_ids[]=${String(other)}`,
      headers,
    );
    expect(paged.json().meta.pagination).toMatchObject({ total: 2, current_page: 1 });
    const unpaged = await call(panel, 'GET', `/nodes/deployable?memory=1&disk=1&location_ids[]=${String(location)}`, headers);
    expect(Object.keys(unpaged.json())).toEqual(['object', 'data']);
    const none = await call(panel, 'GET', `/nodes/deployable?memory=999999&disk=1&location_ids[]=${String(location)}`, headers);
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].code).toBe('NoViableNodeException');
    for (const bad of ['disk=1', 'memory=-1&disk=1', 'memory=1&disk=1&location_ids[]=x']) {
      expect((await call(panel, 'GET', `/nodes/deployable?${bad}`, headers)).statusCode, bad).toBe(422);
    }
  });

  it('changes a node with PATCH, a new secret on reset_secret; the panel’s own node keeps its address', async ({ panel }) => {
    const { admin, headers, location } = await setup(panel);
    // Made before any remote node exists, so placement never picks one (nothing answers there).
    const server = await panel.server(admin);
    const id = String((await call(panel, 'POST', '/nodes', headers, nodeBody(location))).json().attributes.id);
    const old = nodeConfigurationSchema.parse((await call(panel, 'GET', `/nodes/${id}/configuration`, headers)).json());
    const res = await call(
      panel,
      'PATCH',
      `/nodes/${id}`,
      headers,
      nodeBody(location, { name: 'wings-2', fqdn: 'node2.example.com', daemon_listen: 8443, reset_secret: true }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attributes).toMatchObject({ name: 'wings-2', fqdn: 'node2.example.com', daemon_listen: 8443, upload_size: 100 });
    const fresh = nodeConfigurationSchema.parse((await call(panel, 'GET', `/nodes/${id}/configuration`, headers)).json());
    expect(fresh.token).not.toBe(old.token);
    const remote = (token: string, tokenId: string) =>
      panel.app.inject({ url: '/api/remote/servers', headers: { authorization: `Bearer ${tokenId}.${token}` } });
    expect((await remote(old.token, old.token_id)).statusCode).toBe(403);
    expect((await remote(fresh.token, fresh.token_id)).statusCode).toBe(200);

    const localBefore = await nodes.findById(panel.db, server.node_id);
    const local = await call(
      panel,
      'PATCH',
      `/nodes/${String(server.node_id)}`,
      headers,
      nodeBody(location, { name: 'renamed', fqdn: 'evil.example.com', memory: 2048 }),
    );
    expect(local.statusCode, local.body).toBe(200);
    expect(local.json().attributes).toMatchObject({ name: 'local', fqdn: localBefore?.fqdn, memory: 2048, location_id: location });
    expect((await nodes.findById(panel.db, server.node_id))?.daemon_base_url).toBeNull();
    const localConfig = await call(panel, 'GET', `/nodes/${String(server.node_id)}/configuration`, headers);
    expect(localConfig.statusCode).toBe(400);
    expect((await panel.db.selectFrom('activity_logs').select('event').where('event', '=', 'admin:node.update').execute()).length).toBe(2);
  });

  it('deletes a node without servers (204, its allocations too) and refuses one with servers or the panel’s own', async ({ panel }) => {
    const { admin, headers, location } = await setup(panel);
    const server = await panel.server(admin);
    const busy = (await call(panel, 'POST', '/nodes', headers, nodeBody(location, { name: 'busy' }))).json().attributes.id as number;
    await panel.db.updateTable('servers').set({ node_id: busy }).where('id', '=', server.id).execute();
    const refused = await call(panel, 'DELETE', `/nodes/${String(busy)}`, headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({
      code: 'HasActiveServersException',
      detail: 'A node must have no servers linked to it in order to be deleted.',
    });
    expect(await nodes.findById(panel.db, busy)).toBeDefined();

    const local = (await nodes.local(panel.db))?.id ?? 0;
    await panel.db.updateTable('servers').set({ node_id: busy }).execute();
    const own = await call(panel, 'DELETE', `/nodes/${String(local)}`, headers);
    expect(own.statusCode).toBe(400);
    expect(await nodes.findById(panel.db, local)).toBeDefined();

    const empty = (await call(panel, 'POST', '/nodes', headers, nodeBody(location, { name: 'empty' }))).json().attributes.id as number;
    await call(panel, 'POST', `/nodes/${String(empty)}/allocations`, headers, { ip: '10.0.0.5', ports: ['25565'] });
    expect((await call(panel, 'DELETE', `/nodes/${String(empty)}`, headers)).statusCode).toBe(204);
    expect(await nodes.findById(panel.db, empty)).toBeUndefined();
    expect(await panel.db.selectFrom('allocations').selectAll().where('node_id', '=', empty).execute()).toEqual([]);
    const events = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', '=', 'admin:node.delete').execute();
    expect(events.map((e) => JSON.parse(e.properties) as unknown)).toEqual([{ name: 'empty' }]);
  });
});
