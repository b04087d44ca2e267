import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_LOST,
  BAD_CREDENTIALS,
  ConsoleSocket,
  HISTORY_POINTS,
  reconnectDelay,
  SocketAccessLost,
  type OutputEvent,
  type SocketLike,
} from './socket-client';

/** A stand-in for the browser's WebSocket: records what the client sends, lets the test play the node. */
class FakeSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  sent: { event: string; args?: unknown[] }[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as { event: string; args?: unknown[] });
  }
  close() {
    this.closed = true;
  }
  /** The node sends a frame. */
  frame(event: string, ...args: string[]) {
    this.onmessage?.({ data: JSON.stringify({ event, args }) });
  }
  /** The node hangs up. */
  hangUp() {
    this.closed = true;
    this.onclose?.();
  }
}

const stats = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    memory_bytes: 100,
    memory_limit_bytes: 1000,
    cpu_absolute: 12.5,
    network: { rx_bytes: 1, tx_bytes: 2 },
    uptime: 5000,
    state: 'running',
    disk_bytes: 10,
    ...over,
  });

let sockets: FakeSocket[];
let tokens: number;
let fetchToken: ReturnType<typeof vi.fn<() => Promise<{ token: string; socket: string }>>>;
let output: OutputEvent[];

function makeClient() {
  const client = new ConsoleSocket({
    fetchToken,
    open: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  });
  client.onOutput((e) => output.push(e));
  return client;
}

/** Lets the token promise settle. */
const flush = () => vi.advanceTimersByTimeAsync(0);

async function connected(client: ConsoleSocket): Promise<FakeSocket> {
  client.start();
  await flush();
  const s = sockets.at(-1);
  if (!s) throw new Error('no socket');
  s.onopen?.();
  s.frame('auth success');
  return s;
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  tokens = 0;
  output = [];
  fetchToken = vi.fn(() => {
    tokens += 1;
    return Promise.resolve({ token: `t${tokens}`, socket: 'ws://panel.test/api/servers/u/ws' });
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ConsoleSocket', () => {
  it('authenticates with a fresh token, then clears the terminal and asks for the history once', async () => {
    const client = makeClient();
    const s = await connected(client);
    expect(s.url).toBe('ws://panel.test/api/servers/u/ws');
    expect(s.sent[0]).toEqual({ event: 'auth', args: ['t1'] });
    expect(s.sent[1]).toEqual({ event: 'send logs', args: [null] });
    expect(client.getSnapshot().connection).toBe('connected');
    expect(output).toEqual([{ kind: 'clear' }]);

    s.frame('console output', '\x1b[32mDone\x1b[0m');
    s.frame('daemon message', 'Server marked as offline…');
    s.frame('install output', 'download failed');
    expect(output.slice(1)).toEqual([
      { kind: 'output', line: '\x1b[32mDone\x1b[0m' },
      { kind: 'daemon', line: 'Server marked as offline…' },
      // Set apart from the server's own output.
      { kind: 'install', line: 'download failed' },
    ]);
  });

  it('re-authenticates on the same socket when the token is expiring, without replaying the history again', async () => {
    const client = makeClient();
    const s = await connected(client);
    s.frame('token expiring');
    await flush();
    expect(sockets).toHaveLength(1);
    expect(s.sent.at(-1)).toEqual({ event: 'auth', args: ['t2'] });
    s.frame('auth success');
    expect(s.sent.filter((f) => f.event === 'send logs')).toHaveLength(1);
    expect(output.filter((e) => e.kind === 'clear')).toHaveLength(1);
  });

  it('fetches a new token on a renewable jwt error (rights changed), and stops on every other kind', async () => {
    const client = makeClient();
    const s = await connected(client);
    s.frame('jwt error', 'jwt: created too far in past (denylist)');
    await flush();
    expect(s.sent.at(-1)).toEqual({ event: 'auth', args: ['t2'] });
    expect(client.getSnapshot().connection).toBe('connected');

    s.frame('jwt error', 'jwt: signature is invalid');
    expect(client.getSnapshot()).toMatchObject({ connection: 'error', error: BAD_CREDENTIALS });
    expect(s.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('says the user lost access when the new token is refused (403)', async () => {
    const client = makeClient();
    const s = await connected(client);
    fetchToken.mockRejectedValueOnce(new SocketAccessLost('forbidden'));
    s.frame('jwt error', 'jwt: exp claim is invalid');
    await flush();
    expect(client.getSnapshot()).toMatchObject({ connection: 'error', error: ACCESS_LOST });
  });

  it('reconnects with back-off (1 s, 2 s, 4 s…), a fresh token each time, and resets after a success', async () => {
    const client = makeClient();
    const first = await connected(client);
    first.hangUp();
    expect(client.getSnapshot().connection).toBe('reconnecting');

    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    sockets[1]?.hangUp();
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
    const third = sockets[2];
    third?.onopen?.();
    expect(third?.sent[0]).toEqual({ event: 'auth', args: ['t3'] });
    third?.frame('auth success');
    expect(client.getSnapshot().connection).toBe('connected');
    // A fresh connection replays the history after clearing what was shown.
    expect(output.filter((e) => e.kind === 'clear')).toHaveLength(2);

    third?.hangUp();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(4);
  });

  it('caps the delay at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('keeps stats and a capped history, cleared when the server goes offline; ignores what it does not know', async () => {
    const client = makeClient();
    const s = await connected(client);
    s.frame('status', 'starting');
    expect(client.getSnapshot().status).toBe('starting');
    for (let i = 0; i < HISTORY_POINTS + 5; i += 1) s.frame('stats', stats({ cpu_absolute: i }));
    const snap = client.getSnapshot();
    expect(snap.status).toBe('running');
    expect(snap.history).toHaveLength(HISTORY_POINTS);
    expect(snap.history.at(-1)?.cpu_absolute).toBe(HISTORY_POINTS + 4);

    s.onmessage?.({ data: 'not json' });
    s.frame('stats', '{"broken":');
    s.frame('status', 'exploding');
    s.frame('something new', 'x');
    s.frame('backup completed', '{}');
    expect(client.getSnapshot()).toBe(snap);

    s.frame('status', 'offline');
    expect(client.getSnapshot()).toMatchObject({ status: 'offline', stats: null, history: [] });
  });

  it('hands every frame to event listeners (a backup result), and asks for no history when told not to', async () => {
    const client = new ConsoleSocket({
      fetchToken,
      history: false,
      open: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
    });
    const events: [string, readonly string[]][] = [];
    const off = client.onEvent((event, args) => events.push([event, args]));
    const s = await connected(client);
    expect(client.getSnapshot().connection).toBe('connected');
    expect(s.sent.map((f) => f.event)).toEqual(['auth']);
    s.frame('backup completed:00000000-0000-4000-8000-000000000001', '{"is_successful":true}');
    s.frame('backup restore completed');
    expect(events).toEqual([
      ['auth success', []],
      ['backup completed:00000000-0000-4000-8000-000000000001', ['{"is_successful":true}']],
      ['backup restore completed', []],
    ]);
    off();
    s.frame('backup restore completed');
    expect(events).toHaveLength(3);
  });

  it('opens nothing once stopped, even when the token arrives afterwards', async () => {
    const client = makeClient();
    client.start();
    client.stop();
    client.start();
    client.stop();
    await flush();
    expect(sockets).toHaveLength(0);
    expect(client.send('send command', 'say hi')).toBe(false);
  });
});
