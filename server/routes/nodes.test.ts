import { describe, expect } from 'vitest';
import { websocketTokenSchema } from '../../src/contract';
import { decodeJwt } from 'jose';
import { revokeSocketTokens } from '../services/node-tokens';
import { test } from '../test/fixtures';

const it = test
  .extend('owner', async ({ panel }) => panel.user())
  .extend('server', async ({ panel, owner }) => panel.server(owner))
  .extend('headers', async ({ panel, owner }) => panel.bearerHeaders(owner))
  .extend('moveToRemoteNode', async ({ panel, server }) => async () => {
    const node = await panel.db
      .insertInto('nodes')
      .values({
        uuid: '5f0b2a4c-2f4e-4f7b-8d7a-0c2d9a6b1e11',
        name: 'node-eu-1',
        fqdn: 'node1.example.com',
        sftp_port: 2022,
        maintenance_mode: 0,
        daemon_base_url: 'https://node1.example.com:8080',
        daemon_token: 'remote-node-key',
        daemon_token_id: 'remotenodeid0001',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await panel.db.updateTable('servers').set({ node_id: node.id }).where('id', '=', server.id).execute();
  });

/*
 * Servers are reached through the daemon of their node: the one inside this panel, or a remote
 * node's. A node the panel cannot talk to leaves its servers visible and says why nothing answers.
 */
describe('the daemon of a server’s node', () => {
  it('answers 504 for the files of a server on a node it cannot reach, and still shows the server', async ({
    panel,
    server,
    headers,
    moveToRemoteNode,
  }) => {
    await moveToRemoteNode();
    const list = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/list`, headers });
    expect(list.statusCode).toBe(504);
    expect(list.json().errors[0]).toMatchObject({ code: 'DaemonConnectionException', detail: expect.stringContaining('node-eu-1') });
    const detail = await panel.app.inject({ url: `/api/client/servers/${server.uuid}`, headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().attributes.node).toBe('node-eu-1');
  });

  it("signs a remote node's tokens with that node's key and sends the browser to its address", async ({
    panel,
    server,
    headers,
    moveToRemoteNode,
  }) => {
    await moveToRemoteNode();
    const res = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/websocket`, headers });
    const { data } = websocketTokenSchema.parse(res.json());
    expect(data.socket).toBe(`wss://node1.example.com:8080/api/servers/${server.uuid}/ws`);
    expect(decodeJwt(data.token).aud).toBe('https://node1.example.com:8080');
    const link = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/upload`, headers });
    expect(link.json().attributes.url).toMatch(/^https:\/\/node1\.example\.com:8080\/upload\/file\?token=/);
    const download = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/download?file=/a.txt`, headers });
    const url = new URL(download.json().attributes.url);
    expect(url.origin + url.pathname).toBe('https://node1.example.com:8080/download/file');
    // Wings 1.11's claims, and the scope newer Wings and Pelican's require (peers.md §4.5).
    expect(decodeJwt(url.searchParams.get('token') ?? '')).toMatchObject({
      scope: 'file-download',
      file_path: '/a.txt',
      server_uuid: server.uuid,
      iss: 'http://localhost:80',
      aud: 'https://node1.example.com:8080',
    });
    expect(decodeJwt(data.token)).toMatchObject({ scope: 'websocket', server_uuid: server.uuid, permissions: ['*'] });
  });

  it("revokes a user's console tokens on the node: earlier ones are refused, later ones are not", async ({ panel, owner, server, headers }) => {
    const token = async () => {
      const res = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/websocket`, headers });
      const claims = decodeJwt(websocketTokenSchema.parse(res.json()).data.token);
      return { jti: String(claims.jti), issuedAt: new Date(Number(claims.iat) * 1000) };
    };
    const before = await token();
    expect(panel.daemon.socketTokenDenied(server.uuid, before.jti, before.issuedAt)).toBe(false);

    panel.clock.advance(5_000);
    await revokeSocketTokens(panel.nodes.local, server.uuid, owner.id);
    expect(panel.daemon.socketTokenDenied(server.uuid, before.jti, before.issuedAt)).toBe(true);

    panel.clock.advance(5_000);
    const after = await token();
    expect(after.jti).toBe(before.jti);
    expect(panel.daemon.socketTokenDenied(server.uuid, after.jti, after.issuedAt)).toBe(false);
  });

  it('tells root admins, and only them, whether the node answered the panel’s last health check', async ({
    panel,
    server,
    headers,
    moveToRemoteNode,
  }) => {
    await moveToRemoteNode();
    await panel.db.updateTable('nodes').set({ daemon_base_url: 'http://127.0.0.1:9' }).where('name', '=', 'node-eu-1').execute();
    await panel.app.nodeHealth.checkAll();
    const admin = await panel.bearerHeaders(await panel.user({ admin: true }));
    const seen = await panel.app.inject({ url: `/api/client/servers/${server.uuid}`, headers: admin });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().attributes.aerie_node_health).toMatchObject({
      reachable: false,
      version: null,
      last_seen: null,
      reason: expect.stringMatching(/\S/),
    });
    const owner = await panel.app.inject({ url: `/api/client/servers/${server.uuid}`, headers });
    expect(owner.json().attributes).not.toHaveProperty('aerie_node_health');
    // The server's live state says the node does not answer (what the SPA's banner is built on).
    const resources = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/resources`, headers });
    expect(resources.statusCode).toBe(504);
    expect(resources.json().errors[0].code).toBe('DaemonConnectionException');
  });
});
