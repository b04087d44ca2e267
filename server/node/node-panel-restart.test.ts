import { expect } from 'vitest';
import WebSocket from 'ws';
import { servers } from '../db/repos';
import { signNodeToken } from '../services/node-tokens';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { startNode, type RunningNode } from '../test/node-support';
import { stopListening } from '../test/raw-http';

/*
 * The panel gone while Aerie's node runs servers (issue 24 §5): the servers keep running, what
 * the node records meanwhile reaches the panel once it is back, and console, power and files work
 * again without restarting the node.
 */

type Frame = { event: string; args?: string[] };

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

async function consoleSocket(remote: RunningNode, token: string, server: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  const ws = new WebSocket(`${remote.url.replace('http', 'ws')}/api/servers/${server}/ws`, { origin: remote.panelUrl });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ event: 'auth', args: [token] }));
  await eventually(() => frames.some((f) => f.event === 'auth success'), 30_000);
  return { ws, frames };
}

it(
  'keeps servers running while the panel is down, sends what happened meanwhile, and works again once it is back',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await remote.server(owner);
    expect((await remote.call('POST', '/api/servers', { uuid: server.uuid })).status).toBe(202);
    await eventually(async () => (await servers.findById(panel.db, server.id))?.status === null, 60_000);
    const sign = () =>
      signNodeToken({
        node: remote.node,
        key: panel.nodes.tokenOf(remote.node),
        user: owner,
        serverUuid: server.uuid,
        scope: 'websocket',
        claims: { permissions: ['*'] },
        ttlSeconds: 600,
        panelOrigin: remote.panelUrl,
        now: new Date(),
      });
    const first = await consoleSocket(remote, await sign(), server.uuid);
    expect((await remote.call('POST', `/api/servers/${server.uuid}/power`, { action: 'start' })).status).toBe(202);
    await eventually(() => first.frames.some((f) => f.event === 'status' && f.args?.[0] === 'running'), 30_000);

    const down = await stopListening(panel.app);
    // A command on the console while the panel is away: the node records it for the panel.
    first.ws.send(JSON.stringify({ event: 'send command', args: ['say while the panel is away'] }));
    await eventually(() => first.frames.some((f) => f.event === 'console output' && (f.args?.[0] ?? '').includes('while the panel is away')), 10_000);
    // Longer than the node's flush interval (5 s): a batch failed against the missing panel.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const details = (await (await remote.call('GET', `/api/servers/${server.uuid}`)).json()) as { state: string };
    expect(details.state).toBe('running');
    first.ws.close();

    await down.back();
    await eventually(async () => {
      const rows = await panel.db.selectFrom('activity_logs').select(['event', 'properties']).where('event', '=', 'server:console.command').execute();
      return rows.some((r) => r.properties.includes('while the panel is away'));
    }, 20_000);
    // Console with a fresh token, power and files through the panel, on the same node process.
    const again = await consoleSocket(remote, await sign(), server.uuid);
    again.ws.close();
    const headers = await panel.bearerHeaders(owner);
    const base = `/api/client/servers/${server.uuid}`;
    const write = await panel.app.inject({
      method: 'POST',
      url: `${base}/files/write?file=%2Fback.txt`,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'back',
    });
    expect(write.statusCode, write.body).toBe(204);
    const list = await panel.app.inject({ url: `${base}/files/list?directory=%2F`, headers });
    expect(list.body).toContain('back.txt');
    const stop = await panel.app.inject({ method: 'POST', url: `${base}/power`, headers, payload: { signal: 'stop' } });
    expect(stop.statusCode, stop.body).toBe(204);
    await eventually(
      async () => ((await (await remote.call('GET', `/api/servers/${server.uuid}`)).json()) as { state: string }).state === 'offline',
      30_000,
    );
  },
);
