import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { backups, serverTransfers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import { failLocalTransfersCutOff, SOURCE_RESTARTED, TARGET_RESTARTED } from '../services/node-reset';
import { test } from '../test/fixtures';

/* The remote API nodes call (issue 24 §1/§2): its own authenticator, and only the calling node's servers. */

const it = test.extend('remoteNode', async ({ panel }) => {
  const owner = await panel.user();
  // Two servers on node-a, one on node-b, one on the panel's own node.
  const onA = [await panel.server(owner), await panel.server(owner)];
  const onB = await panel.server(owner);
  const local = await panel.server(owner);
  const a = await panel.remoteNode('node-a');
  const b = await panel.remoteNode('node-b');
  for (const s of onA) await panel.db.updateTable('servers').set({ node_id: a.id }).where('id', '=', s.id).execute();
  await panel.db.updateTable('servers').set({ node_id: b.id }).where('id', '=', onB.id).execute();
  const bearer = (node: NodeRow) => ({ authorization: `Bearer ${node.daemon_token_id}.${panel.nodes.tokenOf(node)}` });
  const get = (url: string, headers: Record<string, string>) => panel.app.inject({ method: 'GET', url, headers });
  return { a, b, onA, onB, local, owner, bearer, get };
});

it('answers 401 without a bearer, 400 for a malformed one and 403 for a wrong or unknown one', async ({ remoteNode: r }) => {
  const none = await r.get('/api/remote/servers', {});
  expect(none.statusCode).toBe(401);
  expect(none.headers['www-authenticate']).toBe('Bearer');
  expect((await r.get('/api/remote/servers', { authorization: 'Bearer no-dot-here' })).statusCode).toBe(400);
  expect((await r.get('/api/remote/servers', { authorization: 'Bearer a.b.c' })).statusCode).toBe(400);
  const wrong = await r.get('/api/remote/servers', { authorization: `Bearer ${r.a.daemon_token_id}.${'x'.repeat(64)}` });
  expect(wrong.statusCode).toBe(403);
  expect(wrong.json().errors[0].detail).toBe('You are not authorized to access this resource.');
  // Node a's id with node b's token.
  const mixed = `Bearer ${r.a.daemon_token_id}.${r.bearer(r.b).authorization.split('.')[1] ?? ''}`;
  expect((await r.get('/api/remote/servers', { authorization: mixed })).statusCode).toBe(403);
  expect((await r.get('/api/remote/servers', { authorization: `Bearer unknownid0000000.${'x'.repeat(64)}` })).statusCode).toBe(403);
});

it('takes no client credentials, and a node token opens nothing of the client API', async ({ panel, remoteNode: r }) => {
  const key = await panel.bearerHeaders(r.owner);
  expect((await r.get('/api/remote/servers', key)).statusCode).toBe(400);
  expect((await r.get('/api/remote/servers', await panel.sessionHeaders(r.owner))).statusCode).toBe(401);
  expect((await r.get('/api/client', r.bearer(r.a))).statusCode).toBe(401);
  expect((await r.get(`/api/client/servers/${r.onA[0]?.uuid ?? ''}`, r.bearer(r.a))).statusCode).toBe(401);
});

it("lists the calling node's servers in Laravel's pages, with their Wings configuration, and no other node's", async ({ remoteNode: r }) => {
  const first = await r.get('/api/remote/servers?page=0&per_page=1', r.bearer(r.a));
  expect(first.statusCode).toBe(200);
  const body = first.json();
  expect(body.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 1, total: 2, from: 1, to: 1 });
  expect(body.data).toHaveLength(1);
  expect(body.data[0].uuid).toBe(r.onA[0]?.uuid);
  expect(body.data[0].settings.uuid).toBe(r.onA[0]?.uuid);
  expect(body.data[0].process_configuration.stop).toBeDefined();
  const second = (await r.get('/api/remote/servers?page=2&per_page=1', r.bearer(r.a))).json();
  expect(second.data.map((s: { uuid: string }) => s.uuid)).toEqual([r.onA[1]?.uuid]);
  const ofB = (await r.get('/api/remote/servers', r.bearer(r.b))).json();
  expect(ofB.data.map((s: { uuid: string }) => s.uuid)).toEqual([r.onB.uuid]);
  expect(ofB.meta).toMatchObject({ current_page: 1, last_page: 1, per_page: 50, total: 1 });
  expect((await r.get('/api/remote/servers?per_page=100000', r.bearer(r.a))).statusCode).toBe(422);
});

it("gives one server's configuration only to the node it lives on (the reference gives it to any node)", async ({ remoteNode: r }) => {
  const own = await r.get(`/api/remote/servers/${r.onB.uuid}`, r.bearer(r.b));
  expect(own.statusCode).toBe(200);
  expect(own.json().settings).toMatchObject({ uuid: r.onB.uuid, suspended: false });
  expect((await r.get(`/api/remote/servers/${r.onB.uuid}`, r.bearer(r.a))).statusCode).toBe(404);
  expect((await r.get(`/api/remote/servers/${r.local.uuid}`, r.bearer(r.a))).statusCode).toBe(404);
  // By uuid only: the short identifier does not name a server here.
  expect((await r.get(`/api/remote/servers/${r.onB.uuid.slice(0, 8)}`, r.bearer(r.b))).statusCode).toBe(404);
});

it("resets only the calling node's unfinished installs and restores, recording the restore as failed", async ({ panel, remoteNode: r }) => {
  const [installing, restoring] = r.onA;
  if (!installing || !restoring) throw new Error('fixture');
  await panel.db.updateTable('servers').set({ status: 'installing' }).where('id', '=', installing.id).execute();
  await panel.db.updateTable('servers').set({ status: 'restoring_backup' }).where('id', 'in', [restoring.id, r.onB.id]).execute();
  const res = await panel.app.inject({ method: 'POST', url: '/api/remote/servers/reset', headers: r.bearer(r.a) });
  expect(res.statusCode).toBe(204);
  const status = async (id: number) => (await panel.db.selectFrom('servers').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  expect(await status(installing.id)).toBe('install_failed');
  expect(await status(restoring.id)).toBeNull();
  expect(await status(r.onB.id)).toBe('restoring_backup');
  const events = await panel.db.selectFrom('activity_logs').select('event').execute();
  expect(events.map((e) => e.event)).toEqual(['server:backup.restore-failed']);
});

it("fails at reset the calling node's running backups and the transfers it sent or received, and no other node's", async ({
  panel,
  remoteNode: r,
}) => {
  const [sending, backingUp] = r.onA;
  if (!sending || !backingUp) throw new Error('fixture');
  const now = panel.clock.now();
  const backup = (on: ServerRow) =>
    backups.insert(panel.db, { uuid: randomUUID(), server_id: on.id, name: 'nightly', ignored_files: [], is_locked: false, now });
  const [cut, other] = [await backup(backingUp), await backup(r.onB)];
  const transfer = async (server: ServerRow, from: NodeRow | number, to: NodeRow | number) => {
    await panel.db.updateTable('servers').set({ is_transferring: 1 }).where('id', '=', server.id).execute();
    const id = (n: NodeRow | number) => (typeof n === 'number' ? n : n.id);
    const alloc = server.allocation_id ?? 0;
    return serverTransfers.insert(panel.db, {
      serverId: server.id,
      oldNode: id(from),
      newNode: id(to),
      oldAllocation: alloc,
      newAllocation: alloc,
      oldAdditional: [],
      newAdditional: [],
      now,
    });
  };
  const out = await transfer(sending, r.a, r.b);
  const incoming = await transfer(r.onB, r.b, r.a);
  const elsewhere = await transfer(r.local, r.local.node_id, r.b);

  const res = await panel.app.inject({ method: 'POST', url: '/api/remote/servers/reset', headers: r.bearer(r.a) });
  expect(res.statusCode).toBe(204);
  expect(await backups.findById(panel.db, cut.id)).toMatchObject({ is_successful: 0, completed_at: panel.clock.now().toISOString() });
  expect((await backups.findById(panel.db, other.id))?.completed_at).toBeNull();
  expect(await serverTransfers.findById(panel.db, out.id)).toMatchObject({ successful: 0, reason: SOURCE_RESTARTED });
  expect(await serverTransfers.findById(panel.db, incoming.id)).toMatchObject({ successful: 0, reason: TARGET_RESTARTED });
  expect((await serverTransfers.findById(panel.db, elsewhere.id))?.successful).toBeNull();
  const transferring = await panel.db.selectFrom('servers').select(['id', 'is_transferring']).orderBy('id').execute();
  expect(transferring.filter((s) => s.is_transferring === 1).map((s) => s.id)).toEqual([r.local.id]);
  const events = await panel.db.selectFrom('activity_logs').select('event').execute();
  expect(events.map((e) => e.event)).toEqual(['server:backup.fail']);

  // The panel's own start ends its own node's: that node ran in the panel's process.
  expect(await failLocalTransfersCutOff({ db: panel.db, daemons: panel.nodes, clock: panel.clock, warn: () => undefined })).toBe(1);
  expect(await serverTransfers.findById(panel.db, elsewhere.id)).toMatchObject({ successful: 0, reason: SOURCE_RESTARTED });
  expect(await failLocalTransfersCutOff({ db: panel.db, daemons: panel.nodes, clock: panel.clock, warn: () => undefined })).toBe(0);
});

it('takes an install report only for a server on the calling node, checked', async ({ panel, remoteNode: r }) => {
  const [server] = r.onA;
  if (!server) throw new Error('fixture');
  await panel.db.updateTable('servers').set({ status: 'installing' }).where('id', '=', server.id).execute();
  const post = (headers: Record<string, string>, payload: object) =>
    panel.app.inject({ method: 'POST', url: `/api/remote/servers/${server.uuid}/install`, headers, payload });
  const status = async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirstOrThrow()).status;
  expect((await post(r.bearer(r.b), { successful: true })).statusCode).toBe(404);
  expect((await post(r.bearer(r.a), { successful: 'yes' })).statusCode).toBe(422);
  expect(await status()).toBe('installing');
  expect((await r.get(`/api/remote/servers/${server.uuid}/install`, r.bearer(r.b))).statusCode).toBe(404);
  expect((await r.get(`/api/remote/servers/${server.uuid}/install`, r.bearer(r.a))).json()).toHaveProperty('script');
  expect((await post(r.bearer(r.a), { successful: false, reinstall: true })).statusCode).toBe(204);
  expect(await status()).toBe('reinstall_failed');
});

it("takes a backup's and a restore's end only from the node of its server", async ({ panel, remoteNode: r }) => {
  const [server] = r.onA;
  if (!server) throw new Error('fixture');
  const uuid = randomUUID();
  await panel.db
    .insertInto('backups')
    .values({
      uuid,
      server_id: server.id,
      name: 'b',
      ignored_files: '[]',
      disk: 'wings',
      checksum: null,
      bytes: 0,
      is_successful: 0,
      is_locked: 0,
      created_at: panel.clock.now().toISOString(),
      completed_at: null,
      deleted_at: null,
    })
    .execute();
  const post = (url: string, headers: Record<string, string>, payload: object) => panel.app.inject({ method: 'POST', url, headers, payload });
  const done = { successful: true, checksum: 'ab'.repeat(20), checksum_type: 'sha1', size: 1234, parts: [] };
  expect((await post(`/api/remote/backups/${uuid}`, r.bearer(r.b), done)).statusCode).toBe(404);
  expect((await post(`/api/remote/backups/${randomUUID()}`, r.bearer(r.a), done)).statusCode).toBe(404);
  expect((await post(`/api/remote/backups/${uuid}`, r.bearer(r.a), { ...done, size: -1 })).statusCode).toBe(422);
  expect((await post(`/api/remote/backups/${uuid}`, r.bearer(r.a), done)).statusCode).toBe(204);
  const row = await panel.db.selectFrom('backups').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ is_successful: 1, checksum: `sha1:${'ab'.repeat(20)}`, bytes: 1234 });
  await panel.db.updateTable('servers').set({ status: 'restoring_backup' }).where('id', '=', server.id).execute();
  expect((await post(`/api/remote/backups/${uuid}/restore`, r.bearer(r.b), { successful: true })).statusCode).toBe(404);
  expect((await post(`/api/remote/backups/${uuid}/restore`, r.bearer(r.a), { successful: true })).statusCode).toBe(204);
  expect((await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirstOrThrow()).status).toBeNull();
});
