import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { applicationServerListSchema, applicationServerSchema } from '../../src/contract';
import { it } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { billing } from '../test/application-support';

/*
 * The application API's servers as a billing module drives them (issue 25 §4): a server created
 * by deployment lands on the node, installs, and its owner starts it; suspension, build changes
 * and deletion reach the node at once.
 */

describe('the billing module’s flow (issue 25 §4)', () => {
  it('creates by deploy, the owner starts it, suspend, unsuspend, build, delete', { timeout: 60_000 }, async ({ panel }) => {
    const { call, body, node } = await billing(panel);
    const owner = await panel.user();

    const created = await call('POST', '/servers', body({ user: owner.id, external_id: 'whmcs-1' }));
    expect(created.statusCode, created.body).toBe(201);
    const server = applicationServerSchema.parse(created.json()).attributes;
    expect(server).toMatchObject({
      external_id: 'whmcs-1',
      name: 'Billing server',
      user: owner.id,
      node: node.id,
      status: null,
      suspended: false,
      limits: { memory: 512, disk: 1024, io: 500, cpu: 100, swap: 0, oom_disabled: false },
      feature_limits: { databases: 1, allocations: 2, backups: 1 },
      container: { installed: 1, environment: expect.objectContaining({ MOTD: 'Welcome', MAX_PLAYERS: '10', P_SERVER_LOCATION: 'eu-west' }) },
    });
    expect(server.allocation).not.toBeNull();
    // Installed by the egg's script: the demo game is in the volume.
    expect(fs.readdirSync(panel.daemon.volumePath(server.uuid))).toContain('demo-game.mjs');

    // The owner sees it in the client area and starts it.
    const ownerKey = await panel.bearerHeaders(owner);
    const listed = await panel.app.inject({ url: '/api/client', headers: ownerKey });
    expect(listed.json().data.map((s: { attributes: { uuid: string } }) => s.attributes.uuid)).toEqual([server.uuid]);
    const client = (method: 'GET' | 'POST', path: string, payload?: object) =>
      panel.app.inject({ method, url: `/api/client/servers/${server.identifier}${path}`, headers: ownerKey, ...(payload ? { payload } : {}) });
    const power = () => client('POST', '/power', { signal: 'start' });
    try {
      expect((await power()).statusCode).toBe(204);
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');

      // Suspended: the client area says so, the node stops it and refuses power.
      expect((await call('POST', `/servers/${server.id}/suspend`)).statusCode).toBe(204);
      expect((await client('GET', '')).json().attributes).toMatchObject({ status: 'suspended', is_suspended: true });
      await eventually(() => panel.daemon.process.state(server.uuid) === 'offline');
      expect((await power()).statusCode).toBe(409);
      await expect(panel.daemon.process.power(server.uuid, 'start')).rejects.toThrow(/suspended/);
      expect((await call('GET', `/servers/${server.id}`)).json().attributes).toMatchObject({ status: 'suspended', suspended: true });

      expect((await call('POST', `/servers/${server.id}/unsuspend`)).statusCode).toBe(204);
      expect((await client('GET', '')).json().attributes.is_suspended).toBe(false);
      expect((await power()).statusCode).toBe(204);
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');

      // The build: the node holds the new limits at once.
      const build = await call('PATCH', `/servers/${server.id}/build`, {
        allocation: server.allocation,
        limits: { memory: 256, swap: 0, disk: 2048, io: 500, cpu: 50 },
        feature_limits: { databases: 0, allocations: 1, backups: 0 },
      });
      expect(build.statusCode, build.body).toBe(200);
      expect(build.json().attributes.limits).toMatchObject({ memory: 256, disk: 2048, cpu: 50 });
      expect((await panel.daemon.configuration(server.uuid)).settings.build).toMatchObject({ memory_limit: 256, disk_space: 2048, cpu_limit: 50 });
    } finally {
      await panel.daemon.process.stopAll();
    }

    expect((await call('DELETE', `/servers/${server.id}`)).statusCode).toBe(204);
    expect(fs.existsSync(panel.daemon.volumePath(server.uuid))).toBe(false);
    expect((await call('GET', `/servers/${server.id}`)).statusCode).toBe(404);
    expect((await panel.app.inject({ url: '/api/client', headers: ownerKey })).json().data).toEqual([]);

    const events = await panel.db.selectFrom('activity_logs').select(['event', 'api_key_id']).orderBy('id').execute();
    expect(events.map((e) => e.event).filter((e) => e.startsWith('admin:'))).toEqual([
      'admin:server.create',
      'admin:server.suspend',
      'admin:server.unsuspend',
      'admin:server.build',
      'admin:server.delete',
    ]);
    expect(events.filter((e) => e.event.startsWith('admin:')).every((e) => e.api_key_id !== null)).toBe(true);
  });
});

describe('reading servers', () => {
  it('lists with filters, sort, pages and includes; views by id and external id', async ({ panel }) => {
    const { call, admin } = await billing(panel);
    const owner = await panel.user();
    const a = await panel.server(owner, { name: 'Alpha', externalId: 'ext-a' });
    const b = await panel.server(owner, { name: 'Beta' });

    const all = applicationServerListSchema.parse((await call('GET', '/servers')).json());
    expect(all.data.map((s) => s.attributes.id)).toEqual([a.id, b.id]);
    expect(all.meta.pagination).toMatchObject({ total: 2, count: 2, per_page: 50, current_page: 1, total_pages: 1 });
    expect((await call('GET', '/servers?sort=-id')).json().data.map((s: { attributes: { id: number } }) => s.attributes.id)).toEqual([b.id, a.id]);
    expect((await call('GET', '/servers?filter[name]=alp')).json().data.map((s: { attributes: { id: number } }) => s.attributes.id)).toEqual([a.id]);
    expect((await call('GET', `/servers?filter[uuidShort]=${b.uuid_short}`)).json().data).toHaveLength(1);
    expect((await call('GET', '/servers?filter[external_id]=ext')).json().data).toHaveLength(1);
    expect((await call('GET', '/servers?per_page=1&page=2')).json().data.map((s: { attributes: { id: number } }) => s.attributes.id)).toEqual([b.id]);
    expect((await call('GET', '/servers?filter[owner]=1')).statusCode).toBe(400);
    expect((await call('GET', '/servers?sort=name')).statusCode).toBe(422);

    const viewed = await call('GET', `/servers/${a.id}?include=user,allocations,variables,egg,node,location,subusers,bogus`);
    expect(viewed.statusCode).toBe(200);
    const rel = viewed.json().attributes.relationships;
    expect(rel.user.attributes.id).toBe(owner.id);
    expect(rel.allocations.data[0].attributes).toMatchObject({ id: a.allocation_id, assigned: true });
    expect(rel.variables.data.map((v: { attributes: { env_variable: string } }) => v.attributes.env_variable)).toContain('SERVER_JARFILE');
    expect(rel.location.attributes.short).toBe('eu-west');
    // The whole egg, as the nests' own route shows it.
    const { nest, id: eggId } = rel.egg.attributes as { nest: number; id: number };
    expect(rel.egg).toEqual((await call('GET', `/nests/${nest}/eggs/${eggId}`)).json());
    expect(rel.bogus).toBeUndefined();
    // A key that may not read users gets the user withheld, as the reference.
    const narrow = await panel.applicationHeaders(admin, { servers: 1 });
    expect((await call('GET', `/servers/${a.id}?include=user`, undefined, narrow)).json().attributes.relationships.user).toEqual({
      object: 'null_resource',
      attributes: null,
    });

    expect((await call('GET', '/servers/external/ext-a')).json().attributes.id).toBe(a.id);
    for (const url of ['/servers/external/nope', '/servers/99999', `/servers/${a.uuid}`]) {
      const res = await call('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].detail).toBe('The requested resource does not exist on this server.');
    }
  });
});
