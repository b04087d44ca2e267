import { describe, expect } from 'vitest';
import { serverWithMetaSchema } from '../../src/contract';
import type { UserRow } from '../db/schema';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner, { name: 'Survival', description: 'Main world', port: 25565, memory: 2048 }))
  .extend('get', async ({ panel }) => async (user: UserRow | null, id: string) => {
    const headers = user ? await panel.sessionHeaders(user) : {};
    return panel.app.inject({ method: 'GET', url: `/api/client/servers/${id}`, headers });
  });

describe('GET /api/client/servers/{server}', () => {
  it('answers 401 without credentials, even for an unknown server', async ({ get }) => {
    const res = await get(null, 'deadbeef');
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AuthenticationException');
  });

  it("returns the owner's server by its 8-character identifier with every spec field", async ({ owner, server, get }) => {
    const res = await get(owner, server.uuid_short);
    expect(res.statusCode).toBe(200);
    const body = serverWithMetaSchema.parse(res.json());
    expect(body.attributes).toMatchObject({
      server_owner: true,
      identifier: server.uuid_short,
      __deprecated_uuid_short: server.uuid_short,
      server_identifier: server.uuid_short,
      internal_id: server.id,
      uuid: server.uuid,
      name: 'Survival',
      description: 'Main world',
      node: 'local',
      is_node_under_maintenance: false,
      sftp_details: { ip: '127.0.0.1', port: 2022 },
      limits: { memory: 2048, swap: 0, disk: 5120, io: 500, cpu: 100, threads: '', oom_disabled: false },
      egg_features: ['eula', 'java_version', 'pid_limit'],
      feature_limits: { databases: 2, allocations: 3, backups: 3 },
      status: null,
      is_suspended: false,
      is_installing: false,
      is_transferring: false,
    });
    expect(body.meta).toEqual({ is_server_owner: true, user_permissions: ['*'] });
  });

  it('returns the same server by its full uuid', async ({ owner, server, get }) => {
    const res = await get(owner, server.uuid);
    expect(res.statusCode).toBe(200);
    expect(serverWithMetaSchema.parse(res.json()).attributes.uuid).toBe(server.uuid);
  });

  it('fills the invocation and lists variables with startup meta for the owner', async ({ owner, server, get }) => {
    const body = serverWithMetaSchema.parse((await get(owner, server.uuid)).json());
    expect(body.attributes.invocation).toBe('java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar server.jar');
    const variables = body.attributes.relationships.variables;
    if (variables.object !== 'list') throw new Error('variables withheld');
    expect(variables.data.map((v) => v.attributes.env_variable)).toEqual(['SERVER_JARFILE', 'MINECRAFT_VERSION', 'BUILD_NUMBER']);
    expect(variables.data[0]?.attributes).toMatchObject({ default_value: 'server.jar', server_value: 'server.jar', is_editable: true });
    expect(variables.meta).toEqual({
      startup_command: body.attributes.invocation,
      raw_startup_command: expect.stringContaining('{{SERVER_JARFILE}}'),
      docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
    });
  });

  it('lists the primary allocation with string notes and alias', async ({ owner, server, get }) => {
    const body = serverWithMetaSchema.parse((await get(owner, server.uuid)).json());
    expect(body.attributes.relationships.allocations.data).toEqual([
      {
        object: 'allocation',
        attributes: { id: server.allocation_id, ip: '127.0.0.1', ip_alias: '127.0.0.1', port: 25565, notes: '', is_default: true },
      },
    ]);
  });

  it('reports the admin permission list to a root admin who is not a member', async ({ panel, server, get }) => {
    const admin = await panel.user({ admin: true });
    const res = await get(admin, server.uuid_short);
    expect(res.statusCode).toBe(200);
    const body = serverWithMetaSchema.parse(res.json());
    expect(body.attributes.server_owner).toBe(false);
    expect(body.meta).toEqual({
      is_server_owner: false,
      user_permissions: ['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'],
    });
  });

  it("reports a subuser's exact permissions, websocket.connect included", async ({ panel, server, get }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, ['control.console', 'file.read']);
    const body = serverWithMetaSchema.parse((await get(sub, server.uuid)).json());
    expect(body.meta).toEqual({ is_server_owner: false, user_permissions: ['websocket.connect', 'control.console', 'file.read'] });
  });

  it('hides variables and their values from a subuser without startup.read', async ({ panel, server, get }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, ['control.console']);
    const body = serverWithMetaSchema.parse((await get(sub, server.uuid)).json());
    expect(body.attributes.relationships.variables).toEqual({ object: 'null_resource', attributes: null });
    expect(body.attributes.invocation).toMatch(/-jar \[hidden\]$/);
  });

  it('shows a subuser without allocation.read only the primary allocation, notes blanked', async ({ panel, server, get }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, []);
    await panel.db.updateTable('allocations').set({ notes: 'secret' }).where('server_id', '=', server.id).execute();
    await panel.db
      .insertInto('allocations')
      .values({ node_id: server.node_id, ip: '127.0.0.1', ip_alias: null, port: 25600, server_id: server.id, notes: null })
      .execute();
    const body = serverWithMetaSchema.parse((await get(sub, server.uuid)).json());
    expect(body.attributes.relationships.allocations.data.map((a) => [a.attributes.port, a.attributes.notes])).toEqual([[25565, '']]);
  });

  it('lists every allocation with notes for a subuser with allocation.read', async ({ panel, server, get }) => {
    const sub = await panel.user();
    await panel.subuser(server, sub, ['allocation.read']);
    await panel.db.updateTable('allocations').set({ notes: 'main' }).where('server_id', '=', server.id).execute();
    await panel.db
      .insertInto('allocations')
      .values({ node_id: server.node_id, ip: '127.0.0.1', ip_alias: 'play.example.com', port: 25600, server_id: server.id, notes: null })
      .execute();
    const body = serverWithMetaSchema.parse((await get(sub, server.uuid)).json());
    expect(body.attributes.relationships.allocations.data.map((a) => a.attributes)).toEqual([
      expect.objectContaining({ port: 25565, notes: 'main', is_default: true }),
      expect.objectContaining({ port: 25600, notes: '', ip_alias: 'play.example.com', is_default: false }),
    ]);
  });

  it('answers 404 to a user with no relation to the server', async ({ panel, server, get }) => {
    const stranger = await panel.user();
    const res = await get(stranger, server.uuid);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NotFoundHttpException');
  });

  it('answers 404 for an unknown identifier', async ({ owner, get }) => {
    const res = await get(owner, 'ffffffff');
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NotFoundHttpException');
  });

  it('does not treat LIKE wildcards in the identifier as patterns', async ({ owner, get }) => {
    const res = await get(owner, '%25%25%25%25%25%25%25%25');
    expect(res.statusCode).toBe(404);
    const underscores = await get(owner, '________');
    expect(underscores.statusCode).toBe(404);
  });

  it('still shows a suspended server', async ({ panel, owner, server, get }) => {
    await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
    const res = await get(owner, server.uuid);
    expect(res.statusCode).toBe(200);
    expect(serverWithMetaSchema.parse(res.json()).attributes).toMatchObject({ status: 'suspended', is_suspended: true });
  });

  it('marks a server whose install failed as installing', async ({ panel, owner, server, get }) => {
    await setServerStatus(panel.db, server.uuid, 'install_failed', panel.clock.now());
    const body = serverWithMetaSchema.parse((await get(owner, server.uuid)).json());
    expect(body.attributes).toMatchObject({ status: 'install_failed', is_installing: true, is_suspended: false });
  });

  it('works the same with a bearer API key', async ({ panel, owner, server }) => {
    const res = await panel.app.inject({ method: 'GET', url: `/api/client/servers/${server.uuid_short}`, headers: await panel.bearerHeaders(owner) });
    expect(res.statusCode).toBe(200);
    expect(serverWithMetaSchema.parse(res.json()).meta.is_server_owner).toBe(true);
  });
});
