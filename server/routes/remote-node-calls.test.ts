import { expect } from 'vitest';
import { newKeyPair } from '../daemon/local/sftp-keys';
import type { NodeRow } from '../db/schema';
import { addSshKey } from '../services/ssh-keys';
import { test } from '../test/fixtures';

/* What a remote node tells the panel about its users: activity it saw, and SFTP sign-in (peers.md §4.7, §4.8). */

const it = test.extend('remote', async ({ panel }) => {
  const owner = await panel.user({ username: 'owner', password: 'owner password 1' });
  const a = await panel.remoteNode('node-a');
  const b = await panel.remoteNode('node-b');
  const onA = await panel.server(owner);
  const onB = await panel.server(owner);
  await panel.db.updateTable('servers').set({ node_id: a.id, status: null }).where('id', '=', onA.id).execute();
  await panel.db.updateTable('servers').set({ node_id: b.id, status: null }).where('id', '=', onB.id).execute();
  const post = (node: NodeRow, url: string, payload: unknown) =>
    panel.app.inject({
      method: 'POST',
      url: `/api/remote${url}`,
      headers: { authorization: `Bearer ${node.daemon_token_id}.${panel.nodes.tokenOf(node)}` },
      payload: payload as object,
    });
  const events = async () =>
    panel.db
      .selectFrom('activity_logs')
      .select(['event', 'actor_id', 'ip', 'properties'])
      .where('event', 'not like', 'auth:%')
      .orderBy('id')
      .execute();
  return { a, b, onA, onB, owner, post, events };
});

const entry = (server: string, event: string, user: string | null = null) => ({
  user,
  server,
  event,
  metadata: { files: ['a.txt'] },
  ip: '203.0.113.9',
  timestamp: '2026-03-01T11:59:00Z',
});

it("stores a node's activity for its own servers only, and only the events Wings reports", async ({ remote: r }) => {
  const res = await r.post(r.a, '/activity', {
    data: [
      entry(r.onA.uuid, 'server:sftp.write', r.owner.uuid),
      entry(r.onA.uuid, 'server:file.uploaded'),
      // Another node's server (attack: a node writing into another's audit log).
      entry(r.onB.uuid, 'server:sftp.delete', r.owner.uuid),
      // Events only the panel itself records.
      entry(r.onA.uuid, 'server:subuser.create', r.owner.uuid),
      entry(r.onA.uuid, 'auth:success', r.owner.uuid),
    ],
  });
  expect(res.statusCode).toBe(200);
  const stored = await r.events();
  expect(stored.map((e) => e.event)).toEqual(['server:sftp.write', 'server:file.uploaded']);
  expect(stored[0]?.actor_id).toBe(r.owner.id);
  expect(stored[1]?.actor_id).toBeNull();
  expect(stored[0]?.ip).toBe('203.0.113.9');
});

it('refuses a malformed or oversized activity batch with 422', async ({ remote: r }) => {
  const many = Array.from({ length: 101 }, () => entry(r.onA.uuid, 'server:sftp.write'));
  expect((await r.post(r.a, '/activity', { data: many })).statusCode).toBe(422);
  expect((await r.post(r.a, '/activity', { data: [{ ...entry(r.onA.uuid, 'server:sftp.write'), timestamp: 'yesterday' }] })).statusCode).toBe(422);
  expect((await r.post(r.a, '/activity', { data: 'x' })).statusCode).toBe(422);
  expect(await r.events()).toEqual([]);
});

it('signs a user into SFTP with their password, for a server on the calling node', async ({ remote: r }) => {
  const username = `owner.${r.onA.uuid_short}`;
  const ok = await r.post(r.a, '/sftp/auth', { type: 'password', username, password: 'owner password 1', ip: '203.0.113.9' });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ user: r.owner.uuid, server: r.onA.uuid, permissions: ['*'] });
  const wrong = await r.post(r.a, '/sftp/auth', { type: 'password', username, password: 'nope', ip: '203.0.113.9' });
  expect(wrong.statusCode).toBe(403);
  expect(wrong.json().errors[0].detail).toBe('Authorization credentials were not correct, please try again.');
  expect((await r.post(r.a, '/sftp/auth', { type: 'password', username: 'owner', password: 'x', ip: '1.2.3.4' })).statusCode).toBe(400);
});

it("refuses a node signing a user into another node's server, even with the right password", async ({ remote: r }) => {
  const res = await r.post(r.a, '/sftp/auth', {
    type: 'password',
    username: `owner.${r.onB.uuid_short}`,
    password: 'owner password 1',
    ip: '203.0.113.9',
  });
  expect(res.statusCode).toBe(403);
});

it('signs in with a public key in authorized_keys form, and refuses a key that is not the account’s', async ({ panel, remote: r }) => {
  const mine = newKeyPair();
  await addSshKey(panel.db, r.owner.id, 'laptop', mine.public, panel.clock.now());
  const username = `owner.${r.onA.uuid_short}`;
  const ok = await r.post(r.a, '/sftp/auth', { type: 'public_key', username, password: mine.public, ip: '203.0.113.9' });
  expect(ok.statusCode).toBe(200);
  expect(ok.json().server).toBe(r.onA.uuid);
  const other = await r.post(r.a, '/sftp/auth', { type: 'public_key', username, password: newKeyPair().public, ip: '203.0.113.9' });
  expect(other.statusCode).toBe(403);
});

it('needs file.sftp of a subuser and answers 409 while the server may not be used', async ({ panel, remote: r }) => {
  const sub = await panel.user({ username: 'helper', password: 'helper password 1' });
  await panel.subuser(r.onA, sub, ['file.read']);
  const username = `helper.${r.onA.uuid_short}`;
  const body = { type: 'password', username, password: 'helper password 1', ip: '203.0.113.7' };
  expect((await r.post(r.a, '/sftp/auth', body)).statusCode).toBe(403);
  await panel.db
    .updateTable('subusers')
    .set({ permissions: JSON.stringify(['file.read', 'file.sftp']) })
    .where('user_id', '=', sub.id)
    .execute();
  const ok = await r.post(r.a, '/sftp/auth', body);
  expect(ok.statusCode).toBe(200);
  expect(ok.json().permissions).toEqual(expect.arrayContaining(['file.read', 'file.sftp']));
  await panel.db.updateTable('servers').set({ status: 'suspended' }).where('id', '=', r.onA.id).execute();
  expect((await r.post(r.a, '/sftp/auth', body)).statusCode).toBe(409);
});

it('throttles guessing per server and node with 429', async ({ remote: r }) => {
  const username = `owner.${r.onA.uuid_short}`;
  const codes: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    // A different client address each time: only the per server and node bucket fills.
    codes.push((await r.post(r.a, '/sftp/auth', { type: 'password', username, password: `guess ${i}`, ip: `198.51.100.${i + 1}` })).statusCode);
  }
  expect(codes).toEqual([403, 403, 403, 403, 403, 429]);
});
