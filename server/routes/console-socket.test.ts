import { decodeJwt, SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import { test } from '../test/fixtures';
import { eventually, makeGame } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { listen } from '../test/raw-http';
import { revokeSocketTokens } from '../services/node-tokens';
import { nodes } from '../db/repos';

/*
 * The console socket (Wings' protocol) with a real ws client, against the panel listening on a
 * port and the demo game running in its sandbox: the origin check, auth and every way a token
 * can fail, permissions limited by the token, logs, stats, commands and power.
 */

interface Frame {
  event: string;
  args?: string[];
}

/** A console client: every frame received, in order, and ways to wait for one. */
class Client {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Per event: how many of its frames were already waited for. */
  private readonly seen = new Map<string, number>();

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  send(event: string, ...args: string[]): void {
    this.ws.send(JSON.stringify({ event, args }));
  }

  /** The next frame of this event (matching `match`) after the ones of this event already waited for. */
  async next(event: string, match: (frame: Frame) => boolean = () => true, ms = 10_000): Promise<Frame> {
    let found: Frame | undefined;
    await eventually(() => {
      const from = this.seen.get(event) ?? 0;
      const index = this.frames.findIndex((f, i) => i >= from && f.event === event && match(f));
      if (index < 0) return false;
      found = this.frames[index];
      this.seen.set(event, index + 1);
      return true;
    }, ms);
    return found as Frame;
  }

  events(): string[] {
    return this.frames.map((f) => f.event);
  }
}

async function makeSocket(panel: TestPanel, onCleanup: (fn: () => Promise<void>) => void) {
  const game = await makeGame(panel);
  const port = await listen(panel.app);
  const origin = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  onCleanup(async () => {
    for (const client of clients) client.ws.terminate();
    await panel.daemon.process.stopAll();
  });
  /** A token (and the socket address) as the SPA gets them: GET …/websocket as `user`. */
  async function token(user = game.owner, headers?: Record<string, string>) {
    const res = await panel.app.inject({
      method: 'GET',
      url: `/api/client/servers/${game.server.uuid}/websocket`,
      headers: { ...(headers ?? (await panel.bearerHeaders(user))), host: `127.0.0.1:${port}` },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { token: string; socket: string };
  }
  async function open(path = `/api/servers/${game.server.uuid}/ws`, from: string | undefined = origin): Promise<Client> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, from ? { origin: from } : {});
    const client = new Client(ws);
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return client;
  }
  /** A connection authenticated as `user`, past its first status. */
  async function connect(user = game.owner): Promise<Client> {
    const client = await open();
    client.send('auth', (await token(user)).token);
    await client.next('auth success');
    await client.next('status');
    return client;
  }
  return { ...game, port, origin, token, open, connect };
}

const it = test.extend('socket', async ({ panel }, { onCleanup }) => makeSocket(panel, onCleanup));

function state(panel: TestPanel, uuid: string) {
  return panel.daemon.process.state(uuid);
}

describe('the console socket: who may open it', () => {
  it('hands out its own address; a page of another site, no origin, or an unknown server is refused before the upgrade', async ({ socket }) => {
    const { socket: address } = await socket.token();
    expect(address).toBe(`ws://127.0.0.1:${socket.port}/api/servers/${socket.server.uuid}/ws`);
    await expect(socket.open(undefined, 'https://evil.example')).rejects.toThrow('HTTP 403');
    await expect(socket.open(undefined, null as unknown as undefined)).rejects.toThrow('HTTP 403');
    await expect(socket.open('/api/servers/00000000-0000-4000-8000-000000000000/ws')).rejects.toThrow('HTTP 404');
    await expect(socket.open('/api/servers/..%2F..%2Fetc/ws')).rejects.toThrow('HTTP 404');
  });

  it('auth: success, then the status and (offline) one stats frame; a second auth only answers success', async ({ socket }) => {
    const client = await socket.open();
    const { token } = await socket.token();
    client.send('auth', token);
    expect((await client.next('auth success')).args ?? []).toEqual([]);
    expect((await client.next('status')).args).toEqual(['offline']);
    const stats = JSON.parse((await client.next('stats')).args?.[0] ?? '');
    expect(stats).toMatchObject({ state: 'offline', memory_bytes: 0, uptime: 0, network: { rx_bytes: 0, tx_bytes: 0 } });
    client.send('auth', (await socket.token()).token);
    await client.next('auth success');
    await new Promise((r) => setTimeout(r, 200));
    expect(client.events().filter((e) => e === 'status')).toHaveLength(1);
  });

  it('a frame before auth is a jwt error; a forged token gets the generic error and the connection closes', async ({ panel, socket }) => {
    const client = await socket.open();
    client.send('send logs');
    expect((await client.next('jwt error')).args).toEqual(['jwt: no jwt present']);
    // Signed with another key: nothing about why.
    const forged = await new SignJWT({
      scope: 'websocket',
      server_uuid: socket.server.uuid,
      unique_id: 'x',
      user_uuid: socket.owner.uuid,
      permissions: ['*'],
      jti: 'x',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(panel.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(panel.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode('not the node key'));
    client.send('auth', forged);
    const error = await client.next('daemon error');
    expect(error.args?.[0]).toMatch(/^Error Event \[[0-9a-f-]{36}\]: an unexpected error was encountered while handling this request$/);
    expect((await client.closed).code).toBe(4001);
    expect(client.events()).not.toContain('auth success');
  });

  // Wings' `scope` claim (peers.md §4.5): the token's other claims do not make it a console token.
  it('opens only for a token whose scope grants the socket, as Pelican and Wings 1.12 check it', async ({ panel, socket }) => {
    const node = await nodes.local(panel.db);
    const key = new TextEncoder().encode(panel.nodes.tokenOf({ daemon_token: node?.daemon_token ?? '' }));
    const now = Math.floor(panel.clock.now().getTime() / 1000);
    const signed = (scope: string) =>
      new SignJWT({
        scope,
        purpose: 'websocket',
        server_uuid: socket.server.uuid,
        unique_id: scope,
        user_uuid: socket.owner.uuid,
        permissions: ['*'],
        jti: 'x',
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(key);
    const download = await socket.open();
    download.send('auth', await signed('file-download'));
    await download.next('daemon error');
    expect((await download.closed).code).toBe(4001);
    expect(download.events()).not.toContain('auth success');
    const both = await socket.open();
    both.send('auth', await signed('file-download websocket'));
    await both.next('auth success');
    const issued = await socket.token();
    expect(decodeJwt(issued.token)).toMatchObject({
      scope: 'websocket',
      server_uuid: socket.server.uuid,
      user_uuid: socket.owner.uuid,
      permissions: ['*'],
    });
  });

  it("another server's token is refused as Wings refuses it", async ({ panel, socket }) => {
    const other = await panel.server(socket.owner);
    const res = await panel.app.inject({
      method: 'GET',
      url: `/api/client/servers/${other.uuid}/websocket`,
      headers: await panel.bearerHeaders(socket.owner),
    });
    const client = await socket.open();
    client.send('auth', res.json().data.token);
    expect((await client.next('jwt error')).args).toEqual(['jwt: server uuid mismatch']);
    client.send('send command', 'say x');
    expect((await client.next('jwt error')).args).toEqual(['jwt: no jwt present']);
    // No valid token follows: the connection is closed after the grace period.
    expect((await client.closed).code).toBe(4004);
  });
});

describe('the console socket: tokens that lapse', () => {
  it('token expiring a minute before the end, token expired after it; a fresh token on the same connection carries on', async ({ panel, socket }) => {
    const client = await socket.connect();
    panel.clock.advance(9 * 60_000 + 5_000); // ten-minute tokens
    await client.next('token expiring');
    panel.clock.advance(60_000);
    await client.next('token expired');
    client.send('send logs');
    expect((await client.next('jwt error')).args).toEqual(['jwt: exp claim is invalid']);
    client.send('auth', (await socket.token()).token);
    await client.next('auth success');
    client.send('send stats');
    await client.next('stats');
    await new Promise((r) => setTimeout(r, 600)); // past the grace period: still open
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('an expired token presented at auth hears why', async ({ panel, socket }) => {
    const { token } = await socket.token();
    panel.clock.advance(11 * 60_000);
    const client = await socket.open();
    client.send('auth', token);
    expect((await client.next('jwt error')).args).toEqual(['jwt: exp claim is invalid']);
    expect((await client.closed).code).toBe(4004);
  });

  // attacks T-SESS-5
  it('revoked (the rights changed): the open connection is told at once, stops receiving, and a new token restores it', async ({ panel, socket }) => {
    const friend = await panel.user();
    await panel.subuser(socket.server, friend, ['websocket.connect', 'control.console']);
    const client = await socket.connect(friend);
    const before = await socket.token(friend);
    panel.clock.advance(1000);
    await revokeSocketTokens(panel.daemon, socket.server.uuid, friend.id);
    expect((await client.next('jwt error')).args).toEqual(['jwt: created too far in past (denylist)']);
    // The token fetched before the change is refused too; one fetched after works.
    client.send('auth', before.token);
    expect((await client.next('jwt error')).args).toEqual(['jwt: created too far in past (denylist)']);
    client.send('auth', (await socket.token(friend)).token);
    await client.next('auth success');

    // The owner's connection is not touched; a revoked one that never re-authenticates is closed.
    const owner = await socket.connect();
    const lingering = await socket.connect(friend);
    panel.clock.advance(1000);
    await revokeSocketTokens(panel.daemon, socket.server.uuid, friend.id);
    expect((await lingering.closed).code).toBe(4004);
    expect(owner.ws.readyState).toBe(WebSocket.OPEN);
    expect(owner.events()).not.toContain('jwt error');
  });
});

describe('the console socket: the server through it', () => {
  it(
    'start, the log, a command and its reply, stats every second, stop; each action in the activity log',
    { timeout: 30_000 },
    async ({ panel, socket }) => {
      const client = await socket.connect();
      client.send('set state', 'start');
      await client.next('status', (f) => f.args?.[0] === 'starting');
      await client.next('console output', (f) => f.args?.[0]?.includes('For help, type "help"') ?? false);
      await client.next('status', (f) => f.args?.[0] === 'running');
      client.send('send command', 'say hello');
      await client.next('console output', (f) => f.args?.[0]?.includes('[Server] hello') ?? false);
      // Pushed every second while it runs, unasked.
      const stats = JSON.parse((await client.next('stats', (f) => JSON.parse(f.args?.[0] ?? '{}').state === 'running')).args?.[0] ?? '');
      expect(stats.memory_bytes).toBeGreaterThan(10 * 1024 * 1024);
      await client.next('stats', (f) => JSON.parse(f.args?.[0] ?? '{}').state === 'running', 2500);
      // What the node itself says comes as daemon messages, apart from the program's output.
      expect(client.events()).toContain('daemon message');

      // A second viewer asks for the logs: the history, oldest first.
      const late = await socket.connect();
      late.send('send logs');
      await late.next('console output', (f) => f.args?.[0]?.includes('[Server] hello') ?? false);

      client.send('set state', 'stop');
      await client.next('status', (f) => f.args?.[0] === 'offline');
      expect(state(panel, socket.server.uuid)).toBe('offline');
      const rows = await panel.db.selectFrom('activity_logs').select(['event', 'properties', 'ip']).orderBy('id').execute();
      expect(rows.map((r) => r.event)).toEqual(['server:power.start', 'server:console.command', 'server:power.stop']);
      expect(JSON.parse(rows[1]?.properties ?? '')).toEqual({ command: 'say hello' });
      expect(rows[0]?.ip).toBe('127.0.0.1');
    },
  );

  it('permissions come from the token: without them set state and send command do nothing', { timeout: 30_000 }, async ({ panel, socket }) => {
    const watcher = await panel.user();
    await panel.subuser(socket.server, watcher, ['websocket.connect']);
    const client = await socket.connect(watcher);
    client.send('set state', 'start');
    client.send('send stats');
    await client.next('stats');
    expect(state(panel, socket.server.uuid)).toBe('offline');

    const starter = await panel.user();
    await panel.subuser(socket.server, starter, ['control.start']);
    const starting = await socket.connect(starter);
    starting.send('set state', 'start');
    await starting.next('status', (f) => f.args?.[0] === 'running');
    for (const signal of ['stop', 'kill', 'restart']) starting.send('set state', signal);
    starting.send('send command', 'say sneaky');
    client.send('send command', 'say sneaky');
    starting.send('send stats');
    await starting.next('stats');
    expect(state(panel, socket.server.uuid)).toBe('running');
    expect((await socket.history()).join('\n')).not.toContain('sneaky');
    expect(await socket.events()).toEqual(['server:power.start']);
    // Install output is for admins only; the watcher still sees the console.
    expect(client.events()).toContain('console output');
  });

  // attacks T-DOS-1 (oversized frames)
  it('garbage, unknown events and oversized frames change nothing and keep the connection', async ({ socket }) => {
    const client = await socket.connect();
    client.ws.send('not json');
    client.ws.send(JSON.stringify({ event: 'set state' }));
    client.ws.send(JSON.stringify({ event: 'nonsense', args: ['x'] }));
    client.ws.send(JSON.stringify({ event: 'set state', args: ['explode'] }));
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    client.send('send stats');
    await client.next('stats');
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    client.ws.send(JSON.stringify({ event: 'send command', args: ['x'.repeat(64 * 1024)] }));
    expect((await client.closed).code).toBe(1009); // message too big
  });

  // A guard: Node lets go of an upgraded socket's idle timeout; the pings find dead peers instead.
  it('a quiet console outlives the HTTP idle timeout (that one is for requests)', async ({ makePanel, onTestFinished }) => {
    const panel = await makePanel({ idleTimeoutMs: 200 });
    const socket = await makeSocket(panel, (fn) => onTestFinished(fn));
    const client = await socket.connect();
    await new Promise((r) => setTimeout(r, 700));
    client.send('send stats');
    await client.next('stats', () => true);
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
  });

  // attacks T-DOS-1
  it('caps the consoles one address holds on a server, and closes one that floods frames; the others carry on', async ({ socket }) => {
    const open: Client[] = [];
    for (let i = 0; i < 20; i++) open.push(await socket.open());
    await expect(socket.open()).rejects.toThrow('HTTP 429');
    const last = open.pop();
    last?.ws.close();
    await last?.closed;
    open.push(await socket.open()); // the slot it freed
    for (const client of open) client.ws.close();
    await Promise.all(open.map((client) => client.closed));

    const flooder = await socket.connect();
    const bystander = await socket.connect();
    for (let i = 0; i < 200; i++) flooder.send('send stats');
    expect((await flooder.closed).code).toBe(1008);
    bystander.send('send stats');
    await bystander.next('stats', () => true);
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
    // A log replay answers with many frames: it counts as many.
    const replayer = await socket.connect();
    for (let i = 0; i < 5; i++) replayer.send('send logs');
    expect((await replayer.closed).code).toBe(1008);
  });

  it('refuses every other kind of token, and one tampered with', async ({ panel, socket }) => {
    const { token } = await socket.token();
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const edited = `${header}.${Buffer.from(JSON.stringify({ ...claims, permissions: ['*', 'admin.websocket.errors'] })).toString('base64url')}.${token.split('.')[2]}`;
    const download = await panel.app.inject({
      method: 'GET',
      url: `/api/client/servers/${socket.server.uuid}/files/download?file=/demo-game.mjs`,
      headers: await panel.bearerHeaders(socket.owner),
    });
    const downloadToken = new URL(download.json().attributes.url).searchParams.get('token') ?? '';
    for (const bad of [unsigned, edited, downloadToken, 'garbage']) {
      const client = await socket.open();
      client.send('auth', bad);
      expect((await client.closed).code, bad.slice(0, 20)).toBe(4001);
      expect(client.events()).not.toContain('auth success');
    }
  });

  it('a deleted server closes its consoles', async ({ panel, socket }) => {
    const client = await socket.connect();
    await panel.daemon.servers.delete(socket.server.uuid);
    expect(await client.closed).toEqual({ code: 1001, reason: 'server deleted' });
  });
});
