import { createHash } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { describe, expect } from 'vitest';
import { websocketTokenSchema } from '../../src/contract';
import { socketTokenSchema, verifyToken } from '../daemon/tokens';
import { nodes, subusers } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';

/** Asks `panel` for a websocket token for `server`, as `user` signed in through the browser. */
async function socketToken(panel: TestPanel, server: ServerRow, user: UserRow, id = server.uuid, headers: Record<string, string> = {}) {
  return panel.app.inject({
    method: 'GET',
    url: `/api/client/servers/${id}/websocket`,
    headers: { ...(await panel.sessionHeaders(user)), ...headers },
  });
}

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner))
  .extend('get', async ({ panel, server }) => {
    return (user: UserRow, id = server.uuid, headers: Record<string, string> = {}) => socketToken(panel, server, user, id, headers);
  })
  .extend('nodeKey', async ({ panel, server }) => async (): Promise<string> => {
    const node = await nodes.findById(panel.db, server.node_id);
    if (!node) throw new Error('no node');
    return panel.nodes.tokenOf(node);
  });

describe('GET /api/client/servers/{server}/websocket', () => {
  it("gives the owner a 10-minute token signed with the node's key and the socket of the local node", async ({
    panel,
    owner,
    server,
    get,
    nodeKey,
  }) => {
    const res = await get(owner);
    expect(res.statusCode).toBe(200);
    const { data } = websocketTokenSchema.parse(res.json());
    expect(Object.keys(res.json())).toEqual(['data']);
    expect(data.socket).toBe(`ws://localhost:80/api/servers/${server.uuid}/ws`);

    const payload = await verifyToken(data.token, await nodeKey(), socketTokenSchema, panel.clock.now());
    expect(payload).toMatchObject({ server_uuid: server.uuid, user_uuid: owner.uuid, permissions: ['*'] });
    const jti = createHash('md5').update(`${owner.id}${server.uuid}`).digest('hex');
    expect(payload?.jti).toBe(jti);
    expect(decodeProtectedHeader(data.token)).toMatchObject({ alg: 'HS256', jti });
    const now = Math.floor(panel.clock.now().getTime() / 1000);
    const claims = JSON.parse(Buffer.from(data.token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iat: now, nbf: now - 300, exp: now + 600, iss: 'http://localhost:80', aud: 'http://localhost:80' });
  });

  it('is refused by a daemon once it expired, and when signed with another key', async ({ panel, owner, get, nodeKey }) => {
    const { data } = websocketTokenSchema.parse((await get(owner)).json());
    const later = new Date(panel.clock.now().getTime() + 11 * 60_000);
    expect(await verifyToken(data.token, await nodeKey(), socketTokenSchema, later)).toBeNull();
    expect(await verifyToken(data.token, 'another-node-key', socketTokenSchema, panel.clock.now())).toBeNull();
  });

  it('points at wss:// on the public address when the panel is served over HTTPS', async ({ makePanel }) => {
    const panel = await makePanel({ appUrl: 'https://panel.example.com/' });
    const owner = await panel.user();
    const server = await panel.server(owner);
    const { data } = websocketTokenSchema.parse((await socketToken(panel, server, owner)).json());
    expect(data.socket).toBe(`wss://panel.example.com/api/servers/${server.uuid}/ws`);
  });

  it("carries a subuser's own permissions, and refuses a subuser without websocket.connect", async ({ panel, server, get, nodeKey }) => {
    const friend = await panel.user();
    await panel.subuser(server, friend, ['control.console']);
    const ok = websocketTokenSchema.parse((await get(friend)).json());
    const payload = await verifyToken(ok.data.token, await nodeKey(), socketTokenSchema, panel.clock.now());
    expect(payload?.permissions.sort()).toEqual(['control.console', 'websocket.connect']);

    // Stored without the permission (the panel always adds it; an older or hand-edited row may not).
    const stranger = await panel.user();
    await subusers.insert(panel.db, { user_id: stranger.id, server_id: server.id, permissions: ['file.read'], now: panel.clock.now() });
    const refused = await get(stranger);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0]).toMatchObject({
      code: 'HttpForbiddenException',
      detail: "You do not have permission to connect to this server's websocket.",
    });
  });

  it('answers 404 to a non-member, before any state check', async ({ panel, server, get }) => {
    await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
    const res = await get(await panel.user());
    expect(res.statusCode).toBe(404);
  });

  it('lets an admin watch an installing server while its owner gets 409, and refuses everyone a suspended one', async ({
    panel,
    owner,
    server,
    get,
    nodeKey,
  }) => {
    const admin = await panel.user({ admin: true });
    await setServerStatus(panel.db, server.uuid, 'installing', panel.clock.now());
    expect((await get(owner)).statusCode).toBe(409);
    const watched = await get(admin);
    expect(watched.statusCode).toBe(200);
    const payload = await verifyToken(websocketTokenSchema.parse(watched.json()).data.token, await nodeKey(), socketTokenSchema, panel.clock.now());
    expect(payload?.permissions).toEqual(['*', 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer']);

    await setServerStatus(panel.db, server.uuid, 'suspended', panel.clock.now());
    expect((await get(admin)).statusCode).toBe(409);
  });
});
