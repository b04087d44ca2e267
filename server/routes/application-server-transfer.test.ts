import { describe, expect } from 'vitest';
import { allocations, serverTransfers } from '../db/repos';
import { eventually } from '../test/game-support';
import { it } from '../test/transfer-support';

/*
 * POST /api/application/servers/{server}/transfer (Aerie's own; the reference has it in its admin
 * pages): who may move a server, the refusals, and a real move between the panel's node and a
 * second one, whose state the GET route tells.
 */

type Failure = { errors: { code: string; detail: string; meta?: { source_field: string } }[] };

describe('server transfers through the application API', () => {
  it('refuses a non-admin, a read-only key, a client key, a missing server, an unknown node or port, and the same node', async ({ panel, t }) => {
    const url = `/api/application/servers/${t.server.id}/transfer`;
    const post = (headers: Record<string, string>, payload: object = { node_id: t.target.id }, at = url) =>
      panel.app.inject({ method: 'POST', url: at, headers, payload });
    const admin = await panel.sessionHeaders(t.owner);
    const user = await panel.user();
    expect((await post(await panel.sessionHeaders(user))).statusCode).toBe(403);
    expect((await post(await panel.applicationHeaders(t.owner, { servers: 1 }))).statusCode).toBe(403);
    expect((await post(await panel.bearerHeaders(t.owner))).statusCode).toBe(401);
    expect((await post(admin, { node_id: t.target.id }, '/api/application/servers/999999/transfer')).statusCode).toBe(404);

    const unknownNode = await post(admin, { node_id: 999999 });
    expect(unknownNode.statusCode).toBe(422);
    expect((unknownNode.json() as Failure).errors[0]?.meta?.source_field).toBe('node_id');
    // A port of another node, and one another server holds, are not the target's free ports.
    const elsewhere = await allocations.insert(panel.db, {
      node_id: t.other.id,
      ip: '127.0.0.1',
      ip_alias: null,
      port: 31320,
      server_id: null,
      notes: null,
    });
    const held = await allocations.insert(panel.db, {
      node_id: t.target.id,
      ip: '127.0.0.1',
      ip_alias: null,
      port: 31311,
      server_id: t.server.id,
      notes: null,
    });
    for (const [payload, field] of [
      [{ node_id: t.target.id, allocation_id: elsewhere.id }, 'allocation_id'],
      [{ node_id: t.target.id, allocation_id: held.id }, 'allocation_id'],
    ] as const) {
      const res = await post(admin, payload);
      expect(res.statusCode).toBe(422);
      expect((res.json() as Failure).errors[0]?.meta?.source_field).toBe(field);
    }
    const same = await post(admin, { node_id: t.server.node_id });
    expect(same.statusCode).toBe(400);
    expect((same.json() as Failure).errors[0]?.detail).toBe('The server is already on this node.');

    // Nothing was reserved, and there is no transfer to show.
    expect(await t.fresh()).toMatchObject({ is_transferring: 0, node_id: t.server.node_id });
    expect(await panel.db.selectFrom('server_transfers').selectAll().execute()).toEqual([]);
    expect((await panel.app.inject({ url, headers: admin })).json()).toEqual({ object: 'server_transfer', attributes: null });
  });

  it('moves the server to the ports chosen: 202 while it runs, a second one refused with 409, then done', async ({ panel, t }) => {
    const url = `/api/application/servers/${t.server.id}/transfer`;
    const key = await panel.applicationHeaders(t.owner, { servers: 3 });
    const port = await allocations.insert(panel.db, {
      node_id: t.target.id,
      ip: '127.0.0.1',
      ip_alias: null,
      port: 31315,
      server_id: null,
      notes: null,
    });
    const started = await panel.app.inject({ method: 'POST', url, headers: key, payload: { node_id: t.target.id, allocation_id: port.id } });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ object: 'server_transfer', attributes: { state: 'running', new_node: t.target.id, reason: null } });
    const again = await panel.app.inject({ method: 'POST', url, headers: key, payload: { node_id: t.target.id } });
    expect(again.statusCode).toBe(409);

    await eventually(async () => (await serverTransfers.running(panel.db, t.server.id)) === undefined);
    const state = await panel.app.inject({ url, headers: await panel.sessionHeaders(t.owner) });
    expect(state.json()).toMatchObject({ attributes: { state: 'done', old_node: t.server.node_id, new_node: t.target.id } });
    expect(await t.fresh()).toMatchObject({ node_id: t.target.id, allocation_id: port.id, is_transferring: 0 });
    const logged = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', '=', 'admin:server.transfer').execute();
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]?.properties ?? '{}')).toMatchObject({ name: t.server.name, node: 'target' });
  });

  it('tells why a transfer failed, and the server stays where it was', async ({ panel, t }) => {
    const url = `/api/application/servers/${t.server.id}/transfer`;
    const admin = await panel.sessionHeaders(t.owner);
    // Nobody runs the other node: the source cannot send there.
    const res = await panel.app.inject({ method: 'POST', url, headers: admin, payload: { node_id: t.other.id } });
    // The source takes it on (202) and fails in the background, as Wings does.
    expect(res.statusCode).toBe(202);
    await eventually(async () => (await serverTransfers.running(panel.db, t.server.id)) === undefined);
    const state = (await panel.app.inject({ url, headers: admin })).json() as { attributes: { state: string; reason: string | null } };
    expect(state.attributes.state).toBe('failed');
    expect(state.attributes.reason).toBeTruthy();
    expect(await t.fresh()).toMatchObject({ node_id: t.server.node_id, is_transferring: 0 });
  });
});
