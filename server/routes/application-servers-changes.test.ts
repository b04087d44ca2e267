import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { servers } from '../db/repos';
import { findEgg } from '../services/servers';
import { it } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { billing, insertRemoteNode } from '../test/application-support';
import type { TestPanel } from '../test/harness';

/*
 * The application API's changes to a server: who may make them (T-AZ-6), the rules of the
 * details, build and startup bodies, reinstall, suspension twice, and forced deletion.
 */

type Failure = { errors: { code: string; detail: string; meta?: { source_field: string } }[] };
const fields = (res: { json(): unknown }) => (res.json() as Failure).errors.map((e) => e.meta?.source_field);

async function made(panel: TestPanel) {
  const setup = await billing(panel);
  const owner = await panel.user();
  const res = await setup.call('POST', '/servers', setup.body({ user: owner.id }));
  if (res.statusCode !== 201) throw new Error(res.body);
  const server = res.json().attributes as { id: number; uuid: string; allocation: number };
  const row = async () => (await servers.findById(panel.db, server.id)) ?? null;
  return { ...setup, owner, server, row };
}

describe('who may change servers', () => {
  it('a read-only key reads but writes nothing; no servers grant is 403; a client key 401; a non-admin 403', async ({ panel }) => {
    const { call, body, admin, owner, server, row, serverCount } = await made(panel);
    const before = await row();
    const writes: [method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object][] = [
      ['POST', '/servers', body({ user: owner.id })],
      ['PATCH', `/servers/${server.id}/details`, { name: 'Stolen', user: admin.id }],
      [
        'PATCH',
        `/servers/${server.id}/build`,
        { allocation: server.allocation, limits: { memory: 1, swap: 0, disk: 1, io: 500, cpu: 1 }, feature_limits: {} },
      ],
      ['PATCH', `/servers/${server.id}/startup`, { environment: {}, egg: 1, skip_scripts: false }],
      ['POST', `/servers/${server.id}/suspend`],
      ['POST', `/servers/${server.id}/unsuspend`],
      ['POST', `/servers/${server.id}/reinstall`],
      ['DELETE', `/servers/${server.id}`],
      ['DELETE', `/servers/${server.id}/force`],
    ];
    const readOnly = await panel.applicationHeaders(admin, { servers: 1 });
    const noGrant = await panel.applicationHeaders(admin, { users: 3, nodes: 3 });
    const user = await panel.user();
    const refusals: [Record<string, string>, number][] = [
      [readOnly, 403],
      [noGrant, 403],
      [await panel.bearerHeaders(admin), 401],
      [await panel.sessionHeaders(user), 403],
      [await panel.applicationHeaders(user), 403],
    ];
    for (const [headers, status] of refusals) {
      for (const [method, url, payload] of writes) {
        const res = await call(method, url, payload, headers);
        expect(res.statusCode, `${method} ${url}`).toBe(status);
      }
    }
    expect(await row()).toEqual(before);
    expect(await serverCount()).toBe(1);
    expect((await call('GET', `/servers/${server.id}`, undefined, readOnly)).statusCode).toBe(200);
    expect((await call('GET', '/servers', undefined, noGrant)).statusCode).toBe(403);
    expect((await call('GET', `/servers/${server.id}`, undefined, await panel.bearerHeaders(admin))).statusCode).toBe(401);
    // A root admin's own browser session may.
    expect((await call('POST', `/servers/${server.id}/suspend`, undefined, await panel.sessionHeaders(admin))).statusCode).toBe(204);
  });
});

describe('details, build and startup', () => {
  it('refuses invalid details and moves the server to a new owner', async ({ panel }) => {
    const { call, server, owner, row } = await made(panel);
    for (const [payload, field] of [
      [{ user: owner.id }, 'name'],
      [{ name: 'S' }, 'user'],
      [{ name: 'S', user: 99_999 }, 'user'],
      [{ name: 'S', user: owner.id, description: 5 }, 'description'],
    ] as const) {
      const res = await call('PATCH', `/servers/${server.id}/details`, payload);
      expect(res.statusCode).toBe(422);
      expect(fields(res)).toEqual([field]);
    }
    const next = await panel.user();
    const res = await call('PATCH', `/servers/${server.id}/details`, { name: 'Moved', user: next.id, description: 'New home' });
    expect(res.json().attributes).toMatchObject({ name: 'Moved', user: next.id, description: 'New home' });
    expect(await row()).toMatchObject({ owner_id: next.id, name: 'Moved' });
    expect((await panel.app.inject({ url: '/api/client', headers: await panel.bearerHeaders(next) })).json().data).toHaveLength(1);
    expect((await panel.app.inject({ url: '/api/client', headers: await panel.bearerHeaders(owner) })).json().data).toHaveLength(0);
  });

  it('adds and removes allocations, keeps a primary, and takes the legacy top-level limits', async ({ panel }) => {
    const { call, server, node } = await made(panel);
    const free = await panel.db
      .insertInto('allocations')
      .values({ node_id: node.id, ip: '127.0.0.1', ip_alias: null, port: 32_000, server_id: null, notes: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    const url = `/servers/${server.id}/build`;
    const limits = { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 };
    const features = { databases: 0, allocations: 3, backups: 0 };
    expect(fields(await call('PATCH', url, { limits, feature_limits: features }))).toEqual(['allocation']);
    expect(fields(await call('PATCH', url, { allocation: server.allocation, limits }))).toEqual(['feature_limits']);
    expect(fields(await call('PATCH', url, { allocation: server.allocation, feature_limits: features }))).toEqual([
      'limits.memory',
      'limits.swap',
      'limits.disk',
      'limits.io',
      'limits.cpu',
    ]);
    const notMine = await call('PATCH', url, { allocation: free.id, limits, feature_limits: features });
    expect(notMine.statusCode).toBe(400);
    expect((notMine.json() as Failure).errors[0]).toMatchObject({
      code: 'DisplayException',
      detail: 'The requested default allocation is not currently assigned to this server.',
    });

    const moved = await call('PATCH', url, { allocation: free.id, add_allocations: [free.id], ...limits, memory: 768, feature_limits: features });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().attributes).toMatchObject({ allocation: free.id, limits: { memory: 768 } });
    // Removing the primary falls back to another; removing every one is refused.
    const fallback = await call('PATCH', url, { allocation: free.id, remove_allocations: [free.id], limits, feature_limits: features });
    expect(fallback.json().attributes.allocation).toBe(server.allocation);
    const none = await call('PATCH', url, {
      allocation: server.allocation,
      remove_allocations: [server.allocation],
      limits,
      feature_limits: features,
    });
    expect((none.json() as Failure).errors[0]?.detail).toMatch(/no fallback allocation/);
    expect((await panel.daemon.configuration(server.uuid)).settings.allocations.default.port).not.toBe(32_000);
  });

  it('checks the environment with the egg’s rules and hands the node the new startup', async ({ panel }) => {
    const { call, server, egg } = await made(panel);
    const url = `/servers/${server.id}/startup`;
    const bad = await call('PATCH', url, { environment: { MAX_PLAYERS: 'lots' }, egg: egg.id, skip_scripts: false });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['environment.MAX_PLAYERS']);
    expect(fields(await call('PATCH', url, { environment: {}, egg: 99_999, skip_scripts: false }))).toEqual(['egg']);
    expect(fields(await call('PATCH', url, { egg: egg.id, skip_scripts: false }))).toEqual(['environment']);
    const ok = await call('PATCH', url, { environment: { MAX_PLAYERS: 42 }, egg: egg.id, startup: 'node demo-game.mjs', skip_scripts: false });
    expect(ok.statusCode, ok.body).toBe(200);
    // A variable left out keeps its value.
    expect(ok.json().attributes.container).toMatchObject({
      startup_command: 'node demo-game.mjs',
      environment: { MAX_PLAYERS: '42', MOTD: 'Welcome' },
    });
    const held = await panel.daemon.configuration(server.uuid);
    expect(held.settings.environment).toMatchObject({ MAX_PLAYERS: '42', MOTD: 'Welcome' });
    expect(held.settings.invocation).toBe('node demo-game.mjs');
  });

  it('checks the environment of a change of egg with the new egg’s rules, its variables starting from their defaults', async ({ panel }) => {
    const { call, server } = await made(panel);
    const paper = await findEgg(panel.db, 'Paper');
    if (!paper) throw new Error('no Paper egg');
    const url = `/servers/${server.id}/startup`;
    // The demo game's MAX_PLAYERS means nothing to Paper; its jar file must end in .jar.
    const bad = await call('PATCH', url, { environment: { MAX_PLAYERS: 10, SERVER_JARFILE: 'server.zip' }, egg: paper.id, skip_scripts: false });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['environment.SERVER_JARFILE']);
    expect((await call('GET', `/servers/${server.id}`)).json().attributes.egg).not.toBe(paper.id);

    const ok = await call('PATCH', url, { environment: { BUILD_NUMBER: '42' }, egg: paper.id, skip_scripts: false });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().attributes.egg).toBe(paper.id);
    expect(ok.json().attributes.container.environment).toEqual(
      expect.objectContaining({ SERVER_JARFILE: 'server.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: '42' }),
    );
    expect(ok.json().attributes.container.environment).not.toHaveProperty('MAX_PLAYERS');
  });
});

describe('reinstall, suspension and deletion', () => {
  it('reinstalls with the egg’s script; a suspended server is refused; suspending twice changes nothing', async ({ panel }) => {
    const { call, server, row } = await made(panel);
    expect((await call('POST', `/servers/${server.id}/reinstall`)).statusCode).toBe(204);
    await eventually(async () => (await row())?.status === null);
    expect((await call('POST', `/servers/${server.id}/suspend`)).statusCode).toBe(204);
    expect((await call('POST', `/servers/${server.id}/suspend`)).statusCode).toBe(204);
    expect((await call('POST', `/servers/${server.id}/reinstall`)).statusCode).toBe(409);
    const events = await panel.db.selectFrom('activity_logs').select('event').where('event', 'like', 'admin:%').orderBy('id').execute();
    expect(events.map((e) => e.event)).toEqual(['admin:server.create', 'admin:server.reinstall', 'admin:server.suspend']);
  });

  it('a creation the node does not answer leaves no server, and its allocation free, as the reference rolls back', async ({ panel }) => {
    const { call, body } = await billing(panel);
    const owner = await panel.user();
    const node = await insertRemoteNode(panel, 'silent');
    const allocation = await panel.db
      .insertInto('allocations')
      .values({ node_id: node.id, ip: '127.0.0.1', port: 47_001, server_id: null, notes: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    const before = await panel.db.selectFrom('servers').select('id').execute();
    const refused = await call('POST', '/servers', { ...body({ user: owner.id, deploy: undefined }), allocation: { default: allocation.id } });
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(500);
    expect(refused.json().errors[0].code).not.toBe('InternalServerError');
    expect(await panel.db.selectFrom('servers').select('id').execute()).toEqual(before);
    const after = await panel.db.selectFrom('allocations').selectAll().where('id', '=', allocation.id).executeTakeFirstOrThrow();
    expect(after.server_id).toBeNull();
  });

  it('deletes by force what a node that does not answer still holds', async ({ panel }) => {
    const { call, egg } = await billing(panel);
    const owner = await panel.user();
    const node = await insertRemoteNode(panel, 'gone');
    const uuid = randomUUID();
    const ts = panel.clock.now().toISOString();
    const row = await servers.insert(panel.db, {
      uuid,
      uuid_short: uuid.slice(0, 8),
      external_id: null,
      node_id: node.id,
      owner_id: owner.id,
      egg_id: egg.id,
      name: 'Stranded',
      description: '',
      status: null,
      is_transferring: 0,
      memory: 0,
      swap: 0,
      disk: 0,
      io: 500,
      cpu: 0,
      threads: null,
      oom_disabled: 0,
      allocation_id: null,
      startup: egg.startup,
      docker_image: 'x',
      database_limit: 0,
      allocation_limit: 0,
      backup_limit: 0,
      created_at: ts,
      updated_at: ts,
    });
    const refused = await call('DELETE', `/servers/${row.id}`);
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    expect(await servers.findById(panel.db, row.id)).toBeDefined();
    expect((await call('DELETE', `/servers/${row.id}/force`)).statusCode).toBe(204);
    expect(await servers.findById(panel.db, row.id)).toBeUndefined();
  });
});
