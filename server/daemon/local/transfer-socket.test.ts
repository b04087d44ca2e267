import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import type { DaemonEvent } from '../capabilities';
import { tokenKey } from '../tokens';
import { test } from '../../test/fixtures';
import { eventually } from '../../test/game-support';
import { testConfiguration } from '../../test/daemon-contract';
import { ConfigurationStore } from '../../test/configuration-store';
import { LocalDaemon } from '.';

/*
 * What the source's consoles hear of a transfer, as Wings' source says it: `transfer status`
 * (`processing`, then `failure`, or `completed` once the panel deletes the server there) to every
 * console, `transfer logs` only to tokens with `admin.websocket.transfer`.
 */

const SERVER = '0b5f1c2d-3e4a-4b6c-8d7e-9f0a1b2c3d4e';
const SOURCE_KEY = 'source-node-key-0123456789abcdef';
const TARGET_KEY = 'target-node-key-0123456789abcdef';
const ORIGIN = 'http://panel.test';

type Frame = { event: string; args?: string[] };

interface Fixture {
  source: LocalDaemon;
  url: string;
  sent: DaemonEvent[];
  open: (permissions: string[]) => Promise<{ frames: Frame[]; closed: () => boolean }>;
}

const it = test.extend('f', async ({ tempDir }, { onCleanup }): Promise<Fixture> => {
  const store = new ConfigurationStore();
  const options = { configurationSource: store.source, log: () => undefined, bwrap: null, serverUser: null } as const;
  const source = new LocalDaemon(path.join(tempDir, 'source'), { ...options, key: async () => SOURCE_KEY });
  const target = new LocalDaemon(path.join(tempDir, 'target'), { ...options, key: async () => TARGET_KEY });
  await store.apply(source, testConfiguration(SERVER));
  await source.servers.create(SERVER);
  fs.writeFileSync(path.join(source.volumePath(SERVER), 'world.dat'), 'w'.repeat(64 * 1024));
  const [sourceApp, targetApp] = [Fastify(), Fastify()];
  await source.mount(sourceApp, { panelOrigin: () => ORIGIN });
  await target.mount(targetApp, { panelOrigin: () => ORIGIN });
  const sourceAddress = await sourceApp.listen({ port: 0, host: '127.0.0.1' });
  const targetAddress = await targetApp.listen({ port: 0, host: '127.0.0.1' });
  const sockets: WebSocket[] = [];
  onCleanup(async () => {
    for (const ws of sockets) ws.terminate();
    await Promise.all([sourceApp.close(), targetApp.close()]);
  });
  const sent: DaemonEvent[] = [];
  source.events.subscribe((event) => void sent.push(event));
  const open = async (permissions: string[]) => {
    const ws = new WebSocket(`${sourceAddress.replace('http', 'ws')}/api/servers/${SERVER}/ws`, { headers: { origin: ORIGIN } });
    sockets.push(ws);
    const frames: Frame[] = [];
    let closed = false;
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
    ws.on('close', () => (closed = true));
    await new Promise((resolve) => ws.once('open', resolve));
    const token = await new SignJWT({ scope: 'websocket', server_uuid: SERVER, unique_id: randomUUID(), user_uuid: randomUUID(), permissions })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(randomUUID())
      // Tokens issued before the node started are refused; `iat` is in whole seconds.
      .setIssuedAt(Math.ceil(Date.now() / 1000))
      .setExpirationTime('5m')
      .sign(tokenKey(SOURCE_KEY));
    ws.send(JSON.stringify({ event: 'auth', args: [token] }));
    await eventually(() => frames.some((fr) => fr.event === 'auth success'));
    return { frames, closed: () => closed };
  };
  return { source, url: `${targetAddress}/api/transfers`, sent, open };
});

const transferToken = (key: string) =>
  new SignJWT({ scope: 'transfer', sub: SERVER }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('15m').sign(tokenKey(key));

const statuses = (frames: Frame[]) => frames.filter((fr) => fr.event === 'transfer status').map((fr) => fr.args?.[0]);
const logs = (frames: Frame[]) => frames.filter((fr) => fr.event === 'transfer logs').map((fr) => fr.args?.[0] ?? '');

describe('a transfer as the source node’s consoles hear it', () => {
  it('says processing, then completed once the panel deletes the server here; its log lines reach admins only', async ({ f }) => {
    const admin = await f.open(['*', 'admin.websocket.transfer']);
    const subuser = await f.open(['websocket.connect', 'control.console']);
    await f.source.transfers.send(SERVER, { url: f.url, token: `Bearer ${await transferToken(TARGET_KEY)}` });
    await eventually(() => f.sent.some((e) => e.type === 'transfer.sent'));
    expect(f.sent.find((e) => e.type === 'transfer.sent')).toMatchObject({ successful: true });
    // The target has the files, but the panel has not switched yet: no last word before its delete.
    expect(statuses(admin.frames)).toEqual(['processing']);

    await f.source.servers.delete(SERVER);
    await eventually(() => admin.closed() && subuser.closed());
    expect(statuses(admin.frames)).toEqual(['processing', 'completed']);
    expect(statuses(subuser.frames)).toEqual(['processing', 'completed']);
    const lines = logs(admin.frames);
    expect(lines[0]).toMatch(/Stopping the server/);
    expect(lines).toContainEqual(expect.stringMatching(/^\[Transfer\] Sent \d+\.\d MiB; the target node verified the checksum/));
    expect(lines.at(-1)).toMatch(/now runs on its new node/);
    // `*` is not `admin.websocket.transfer` (Wings' HasPermission): a subuser hears no log line.
    expect(logs(subuser.frames)).toEqual([]);
    // The last status comes before the console is closed for the deleted server.
    expect(admin.frames.at(-1)).toEqual({ event: 'transfer status', args: ['completed'] });
  });

  it('says failure when the target refuses, and the server stays usable here', async ({ f }) => {
    const admin = await f.open(['*', 'admin.websocket.transfer']);
    const owner = await f.open(['*']);
    await f.source.transfers.send(SERVER, { url: f.url, token: `Bearer ${await transferToken('another-node-key-0123456789abcdef')}` });
    await eventually(() => statuses(admin.frames).length === 2 && statuses(owner.frames).length === 2);
    expect(statuses(admin.frames)).toEqual(['processing', 'failure']);
    expect(statuses(owner.frames)).toEqual(['processing', 'failure']);
    expect(logs(admin.frames).at(-1)).toMatch(/^\[Transfer\] The transfer failed: the target node answered 401.*stays on this node\.$/s);
    expect(logs(owner.frames)).toEqual([]);
    // A delete later (not a transfer's end) says nothing of a transfer.
    await f.source.files.write(SERVER, 'after.txt', Buffer.from('x'), { maxBytes: 10 });
    await f.source.servers.delete(SERVER);
    await eventually(() => admin.closed());
    expect(statuses(admin.frames)).toEqual(['processing', 'failure']);
  });
});
