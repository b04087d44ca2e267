import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../test/fixtures';
import { billing } from '../test/application-support';
import { eventually } from '../test/game-support';

/*
 * What the application API's server writes refuse: every body's rules (422 naming the field, and
 * nothing made or changed), fields the reference fills itself, external ids, and deployment with
 * no room (the reference's 400s).
 */

type Failure = { errors: { meta: { source_field: string } }[] };
const fields = (res: { json(): unknown }) => (res.json() as Failure).errors.map((e) => e.meta.source_field);

describe('creating a server: validation', () => {
  it('names every missing or invalid field, and creates nothing', async ({ panel }) => {
    const { call, body, serverCount } = await billing(panel);
    const owner = await panel.user();
    const empty = await call('POST', '/servers', {});
    expect(empty.statusCode).toBe(422);
    expect(fields(empty)).toEqual(['name', 'user', 'egg', 'docker_image', 'startup', 'environment', 'limits', 'feature_limits']);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(192) }, 'name'],
      [{ user: 99_999 }, 'user'],
      [{ user: 'me' }, 'user'],
      [{ egg: 99_999 }, 'egg'],
      [{ docker_image: 'evil;rm -rf /' }, 'docker_image'],
      [{ limits: { memory: -1, swap: 0, disk: 1024, io: 500, cpu: 100 } }, 'limits.memory'],
      [{ limits: { memory: 512, swap: -2, disk: 1024, io: 500, cpu: 100 } }, 'limits.swap'],
      [{ limits: { memory: 512, swap: 0, disk: 1024, io: 5, cpu: 100 } }, 'limits.io'],
      [{ limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100, threads: '0;1' } }, 'limits.threads'],
      [{ limits: { memory: 512, swap: 0, io: 500, cpu: 100 } }, 'limits.disk'],
      [{ feature_limits: { databases: -1, backups: 0 } }, 'feature_limits.databases'],
      [{ feature_limits: { databases: 0 } }, 'feature_limits.backups'],
      [{ environment: { MOTD: 'Hi', MAX_PLAYERS: 1000 } }, 'environment.MAX_PLAYERS'],
      [{ environment: { MOTD: '', MAX_PLAYERS: 5 } }, 'environment.MOTD'],
      [{ environment: 'MOTD=x' }, 'environment'],
      [{ oom_disabled: 'yes' }, 'oom_disabled'],
      [{ external_id: '' }, 'external_id'],
      [{ deploy: { locations: [0], dedicated_ip: false, port_range: [] } }, 'deploy.locations.0'],
      [{ deploy: { locations: [], dedicated_ip: false, port_range: ['25565-x'] } }, 'deploy.port_range.0'],
      // Without `deploy`, the allocation must be named, and be a free one.
      [{ deploy: undefined }, 'allocation.default'],
      [{ deploy: undefined, allocation: { default: 99_999 } }, 'allocation.default'],
    ];
    for (const [overrides, field] of cases) {
      const res = await call('POST', '/servers', body({ user: owner.id, ...overrides }));
      expect(res.statusCode, `${JSON.stringify(overrides)}: ${res.body}`).toBe(422);
      expect(fields(res), JSON.stringify(overrides)).toContain(field);
    }
    expect(await serverCount()).toBe(0);
    // Digit strings pass where the reference's `numeric` takes them.
    const ok = await call(
      'POST',
      '/servers',
      body({ user: String(owner.id), limits: { memory: '512', swap: '0', disk: '1024', io: '500', cpu: '100' } }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('ignores the fields the reference fills itself (mass assignment)', async ({ panel }) => {
    const { call, body, node } = await billing(panel);
    const [owner, other] = [await panel.user(), await panel.user()];
    const uuid = '00000000-0000-4000-8000-000000000000';
    const res = await call(
      'POST',
      '/servers',
      body({
        user: owner.id,
        id: 4242,
        uuid,
        uuid_short: 'aaaaaaaa',
        node_id: 777,
        owner_id: other.id,
        status: 'suspended',
        installed: 0,
        is_transferring: 1,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const server = res.json().attributes;
    expect(server).toMatchObject({ user: owner.id, node: node.id, status: null, suspended: false });
    expect(server.id).not.toBe(4242);
    expect(server.uuid).not.toBe(uuid);
    const row = await panel.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: owner.id, is_transferring: 0, status: null });

    const before = await panel.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
    const details = await call('PATCH', `/servers/${server.id}/details`, {
      name: 'Renamed',
      user: owner.id,
      uuid,
      status: 'suspended',
      node_id: 777,
      memory: 1,
      egg_id: 2,
      docker_image: 'evil',
    });
    expect(details.statusCode, details.body).toBe(200);
    const after = await panel.db.selectFrom('servers').selectAll().where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ ...before, name: 'Renamed', updated_at: after.updated_at });
  });

  it('keeps external ids unique, on creation and on details', async ({ panel }) => {
    const { call, body, serverCount } = await billing(panel);
    const owner = await panel.user();
    const first = (await call('POST', '/servers', body({ user: owner.id, external_id: 'order-1' }))).json().attributes;
    const again = await call('POST', '/servers', body({ user: owner.id, external_id: 'order-1' }));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors[0]).toMatchObject({ detail: 'The external id has already been taken.', meta: { source_field: 'external_id' } });
    expect(await serverCount()).toBe(1);
    const second = (await call('POST', '/servers', body({ user: owner.id, external_id: 'order-2' }))).json().attributes;
    const taken = await call('PATCH', `/servers/${second.id}/details`, { name: 'S', user: owner.id, external_id: 'order-1' });
    expect(fields(taken)).toEqual(['external_id']);
    // Its own id again is no conflict; null clears it.
    expect((await call('PATCH', `/servers/${first.id}/details`, { name: 'S', user: owner.id, external_id: 'order-1' })).statusCode).toBe(200);
    expect(
      (await call('PATCH', `/servers/${second.id}/details`, { name: 'S', user: owner.id, external_id: null })).json().attributes.external_id,
    ).toBe(null);
    expect((await call('GET', '/servers/external/order-2')).statusCode).toBe(404);
    expect((await call('GET', '/servers/external/order-1')).json().attributes.id).toBe(first.id);
  });
});

describe('creating a server: where it goes', () => {
  it('installs without the egg’s script when skip_scripts says so', async ({ panel }) => {
    const { call, body } = await billing(panel);
    const owner = await panel.user();
    const skipped = (await call('POST', '/servers', body({ user: owner.id, skip_scripts: true }))).json().attributes;
    expect(skipped).toMatchObject({ status: null, container: { skip_scripts: true } });
    expect(fs.readdirSync(panel.daemon.volumePath(skipped.uuid))).not.toContain('demo-game.mjs');
    expect((await panel.daemon.configuration(skipped.uuid)).settings.skip_egg_scripts).toBe(true);
    const installed = (await call('POST', '/servers', body({ user: owner.id }))).json().attributes;
    expect(fs.readdirSync(panel.daemon.volumePath(installed.uuid))).toContain('demo-game.mjs');
  });

  it('starts the server once installed when start_on_completion says so', { timeout: 30_000 }, async ({ panel }) => {
    const { call, body } = await billing(panel);
    const owner = await panel.user();
    const server = (await call('POST', '/servers', body({ user: owner.id, start_on_completion: true }))).json().attributes;
    try {
      await eventually(() => panel.daemon.process.state(server.uuid) === 'running');
    } finally {
      await panel.daemon.process.stopAll();
    }
  });

  it('takes the allocations named, free ones on one node only', async ({ panel }) => {
    const { call, body, node } = await billing(panel);
    const owner = await panel.user();
    const free = async (port: number) =>
      panel.db
        .insertInto('allocations')
        .values({ node_id: node.id, ip: '127.0.0.1', ip_alias: null, port, server_id: null, notes: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    const [main, extra] = [await free(31_000), await free(31_001)];
    const res = await call('POST', '/servers', body({ user: owner.id, deploy: undefined, allocation: { default: main.id, additional: [extra.id] } }));
    expect(res.statusCode, res.body).toBe(201);
    const server = res.json().attributes;
    expect(server.allocation).toBe(main.id);
    const held = await panel.db.selectFrom('allocations').select('id').where('server_id', '=', server.id).orderBy('id').execute();
    expect(held.map((a) => a.id)).toEqual([main.id, extra.id]);
    // Taken now: the next one naming it is refused.
    const taken = await call('POST', '/servers', body({ user: owner.id, deploy: undefined, allocation: { default: main.id } }));
    expect(fields(taken)).toEqual(['allocation.default']);
  });

  it('answers the reference’s errors when deployment finds no room', async ({ panel }) => {
    const { call, body, node, location, serverCount } = await billing(panel);
    const owner = await panel.user();
    const refused = async (overrides: Record<string, unknown>, code: string) => {
      const res = await call('POST', '/servers', body({ user: owner.id, ...overrides }));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].code).toBe(code);
    };
    await refused({ deploy: { locations: [location.id + 1], dedicated_ip: false, port_range: [] } }, 'NoViableNodeException');
    await panel.db.updateTable('nodes').set({ memory: 256 }).where('id', '=', node.id).execute();
    await refused({}, 'NoViableNodeException');
    await panel.db.updateTable('nodes').set({ memory: 0, port_start: 30_000, port_end: 30_010 }).where('id', '=', node.id).execute();
    await refused({ deploy: { locations: [location.id], dedicated_ip: false, port_range: ['25565-25570'] } }, 'NoViableAllocationException');
    await refused({ deploy: { locations: [location.id], dedicated_ip: true, port_range: [] } }, 'NoViableAllocationException');
    expect(await serverCount()).toBe(0);
    // Within the node's range, the port asked for.
    const ok = await call(
      'POST',
      '/servers',
      body({ user: owner.id, deploy: { locations: [location.id], dedicated_ip: false, port_range: ['30005-30009'] } }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const allocation = await panel.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', ok.json().attributes.allocation)
      .executeTakeFirstOrThrow();
    expect(allocation.port).toBe(30_005);
  });
});
