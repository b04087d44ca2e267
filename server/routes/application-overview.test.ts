import { describe, expect } from 'vitest';
import { adminOverviewSchema } from '../../src/contract/admin-overview';
import { activity } from '../db/repos';
import { it } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { PANEL_VERSION } from '../services/admin-overview';

/*
 * The admin area's overview: a root admin's browser session only. No application key opens it,
 * whatever it holds (it names no resource), and nobody but a root admin.
 */

const get = (panel: TestPanel, headers: Record<string, string>) => panel.app.inject({ url: '/api/application/overview', headers });

async function remoteNode(panel: TestPanel) {
  return panel.db
    .insertInto('nodes')
    .values({
      uuid: '5f0b2a4c-2f4e-4f7b-8d7a-0c2d9a6b1e21',
      name: 'node-far',
      fqdn: 'far.example.com',
      sftp_port: 2022,
      maintenance_mode: 0,
      // Nothing listens there: the health check is refused at once, on loopback.
      daemon_base_url: 'http://127.0.0.1:9',
      daemon_token: 'remote-node-key',
      daemon_token_id: 'remotenodeid0021',
      memory: 8192,
      disk: 100_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe('GET /api/application/overview', () => {
  it('refuses every application key, even one holding every resource, and users who are not root admins', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const user = await panel.user();
    for (const headers of [await panel.applicationHeaders(admin), await panel.sessionHeaders(user), await panel.applicationHeaders(user)]) {
      const res = await get(panel, headers);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().errors[0].status).toBe('403');
    }
    expect((await get(panel, await panel.bearerHeaders(admin))).statusCode).toBe(401);
    expect((await get(panel, {})).statusCode).toBe(401);
  });

  it('shows a root admin the panel version, each node’s health and load, and the latest admin activity only', async ({ panel }) => {
    const admin = await panel.user({ admin: true, username: 'boss' });
    const owner = await panel.user();
    await panel.server(owner, { memory: 1024, disk: 2048 });
    // Made before the remote node exists, so the panel places it on its own node; then moved.
    const moved = await panel.server(owner, { memory: 512, disk: 4096 });
    const far = await remoteNode(panel);
    await panel.db.updateTable('servers').set({ node_id: far.id }).where('id', '=', moved.id).execute();
    await panel.app.nodeHealth.checkAll();

    const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s));
    await activity.insert(panel.db, {
      event: 'admin:user.create',
      ip: '10.0.0.1',
      actorId: admin.id,
      properties: { email: 'a@example.com' },
      subjects: [{ type: 'user', id: owner.id }],
      timestamp: at(1),
    });
    await activity.insert(panel.db, { event: 'server:power.start', ip: '10.0.0.1', actorId: owner.id, subjects: [], timestamp: at(2) });
    await activity.insert(panel.db, {
      event: 'admin:node.update',
      ip: '10.0.0.1',
      actorId: admin.id,
      properties: { name: 'node-far' },
      subjects: [{ type: 'node', id: far.id }],
      timestamp: at(3),
    });

    const res = await get(panel, await panel.sessionHeaders(admin));
    expect(res.statusCode, res.body).toBe(200);
    const { attributes } = adminOverviewSchema.parse(res.json());
    expect(attributes.panel_version).toBe(PANEL_VERSION);
    expect(attributes.nodes).toHaveLength(2);
    const [local, remote] = attributes.nodes;
    expect(local).toMatchObject({
      local: true,
      reachable: true,
      version: PANEL_VERSION,
      servers: 1,
      memory: { allocated: 1024 },
      disk: { allocated: 2048 },
    });
    expect(remote).toMatchObject({
      name: 'node-far',
      local: false,
      reachable: false,
      reason: expect.stringMatching(/\S/),
      servers: 1,
      memory: { allocated: 512, total: 8192 },
      disk: { allocated: 4096, total: 100_000 },
    });
    expect(attributes.activity.map((a) => a.attributes.event)).toEqual(['admin:node.update', 'admin:user.create']);
    const actor = attributes.activity[0]?.attributes.relationships?.actor;
    expect(actor?.object === 'user' && actor.attributes.username).toBe('boss');
  });
});
