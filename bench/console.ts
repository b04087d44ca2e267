import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { startBenchPanel, type BenchPanel, type BenchServer } from './panel';

/*
 * The console through its websocket, as a browser uses it (`npm run bench -- console`; printed,
 * never asserted). The server is the demo game the default egg runs, started through the API.
 * - command → reply: `send command` `say ping-<n>` until the game's `[Server] ping-<n>` line
 *   arrives, one at a time (target: median under 20 ms);
 * - throughput: the server's program replaced (files/write, as any owner may) by one that
 *   prints FLOOD_LINES lines as fast as it can; lines per second reaching a websocket client, and
 *   the panel's memory before and after (target: at least 50,000 lines/s, memory back within a
 *   fixed bound: history and buffers are capped).
 */

const PINGS = 200;
const FLOOD_LINES = 500_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const FLOOD_PROGRAM = `
const line = 'x'.repeat(60);
let i = 0;
function more() {
  while (i < ${FLOOD_LINES}) {
    let chunk = '';
    for (let j = 0; j < 1000 && i < ${FLOOD_LINES}; j += 1, i += 1) chunk += \`[flood] \${i} \${line}\\n\`;
    if (!process.stdout.write(chunk)) return process.stdout.once('drain', more);
  }
  process.stdout.write('FLOOD DONE\\n');
  setInterval(() => {}, 1000);
}
more();
process.stdin.on('data', (d) => { if (String(d).includes('stop')) process.exit(0); });
`;

const COMMAND_GAP_MS = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `promise`, or a clear failure when the console socket closes or `ms` pass first (rather than waiting forever). */
export async function within<T>(promise: Promise<T>, ms: number, what: string, ws?: WebSocket): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onClose: ((code: number, reason: Buffer) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
    onClose = (code, reason) => reject(new Error(`${what}: the console socket closed (${code} ${String(reason)})`));
    ws?.once('close', onClose);
  });
  try {
    return await Promise.race([promise, failed]);
  } finally {
    clearTimeout(timer);
    if (onClose) ws?.off('close', onClose);
  }
}

/** On PATH, as the daemon would find it (the network change runs servers through `pasta`). */
export function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface Frame {
  event: string;
  args?: string[];
}

export async function waitState(panel: BenchPanel, token: string, server: BenchServer, state: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    const res = await panel.api(token, 'GET', `/api/client/servers/${server.uuid}/resources`);
    if ((JSON.parse(res.body) as { attributes: { current_state: string } }).attributes.current_state === state) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not reach ${state}`);
}

/**
 * An authenticated console connection, with a hook for every frame. `toNode`: at the `socket` the
 * panel answers, as the SPA connects to a server on another node (the panel's own node is reached
 * at `base`: through `inject` the panel cannot know the address it listens on).
 */
export async function connect(
  panel: BenchPanel,
  base: string,
  token: string,
  server: BenchServer,
  onFrame: (frame: Frame) => void,
  toNode = false,
): Promise<WebSocket> {
  const res = await panel.api(token, 'GET', `/api/client/servers/${server.uuid}/websocket`);
  const { token: jwt, socket } = (JSON.parse(res.body) as { data: { token: string; socket: string } }).data;
  const url = toNode ? socket : `${base.replace(/^http/, 'ws')}/api/servers/${server.uuid}/ws`;
  const ws = new WebSocket(url, { origin: base });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const authed = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (frame.event === 'auth success') resolve();
      onFrame(frame);
    });
  });
  ws.send(JSON.stringify({ event: 'auth', args: [jwt] }));
  await authed;
  return ws;
}

/** `pings` commands (`say ping-<n>`) one at a time, each timed until the game's reply line arrives. */
export async function commandReplies(
  panel: BenchPanel,
  base: string,
  token: string,
  server: BenchServer,
  pings: number,
  toNode = false,
): Promise<number[]> {
  let waiting: { text: string; resolve: () => void } | null = null;
  const onFrame = (frame: Frame) => {
    if (waiting && frame.event === 'console output' && frame.args?.[0]?.includes(waiting.text)) waiting.resolve();
  };
  const ws = await connect(panel, base, token, server, onFrame, toNode);
  const latencies: number[] = [];
  try {
    for (let n = 0; n < pings; n += 1) {
      const text = `[Server] ping-${n}`;
      const replied = new Promise<void>((resolve) => (waiting = { text, resolve }));
      const t0 = performance.now();
      ws.send(JSON.stringify({ event: 'send command', args: [`say ping-${n}`] }));
      await within(replied, 5_000, `no reply to ping-${n}`, ws);
      latencies.push(performance.now() - t0);
      // The socket closes a client past MAX_FRAMES_PER_SECOND (50): a command every 25 ms stays under it.
      await sleep(Math.max(0, COMMAND_GAP_MS - (performance.now() - t0)));
    }
  } finally {
    ws.close();
  }
  return latencies;
}

export async function benchConsole(): Promise<string[]> {
  const panel = await startBenchPanel();
  const out: string[] = [];
  try {
    const base = await panel.listen();
    const { server, token } = await panel.owner('console');
    const power = (signal: string) => panel.api(token, 'POST', `/api/client/servers/${server.uuid}/power`, { signal });
    await power('start');
    await waitState(panel, token, server, 'running');

    const latencies = await commandReplies(panel, base, token, server, PINGS);
    const m = median(latencies);
    // The figures are compared before and after the network change (target: within 10 %): say which this was.
    out.push(
      `console: network: pasta on PATH: ${onPath('pasta') ? 'yes' : 'no'} (the sandbox section says whether the server had its own network namespace)`,
    );
    out.push(`console: command → reply through the websocket, ${PINGS} commands, one every ${COMMAND_GAP_MS} ms`);
    out.push(`  median ${m.toFixed(1)} ms, p95 ${p95(latencies).toFixed(1)} ms (target: median under 20 ms) ${m < 20 ? 'ok' : 'OVER TARGET'}`);

    // Throughput.
    await power('stop');
    await waitState(panel, token, server, 'offline');
    await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/write?file=${encodeURIComponent('/demo-game.mjs')}`, FLOOD_PROGRAM);
    global.gc?.();
    const before = process.memoryUsage();
    let lines = 0;
    let skipped = 0;
    let first = 0;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const flood = await connect(panel, base, token, server, (frame) => {
      if (frame.event === 'console output') {
        const line = frame.args?.[0] ?? '';
        if (line.startsWith('[flood]')) {
          if (lines === 0) first = performance.now();
          lines += 1;
        } else if (line.includes('FLOOD DONE')) done();
      } else if (frame.event === 'daemon message') {
        const match = /^(\d+) lines of output were skipped/.exec(frame.args?.[0] ?? '');
        if (match) skipped += Number(match[1]);
      }
    });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    await power('start');
    await within(finished, 120_000, 'the flood program did not print FLOOD DONE', flood);
    const seconds = (performance.now() - first) / 1000;
    clearInterval(sampler);
    flood.close();
    await power('kill');
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const after = process.memoryUsage();
    const rate = (lines + skipped) / seconds;
    out.push(`console: a program printing ${FLOOD_LINES.toLocaleString('en')} lines of 80 bytes, one websocket client`);
    out.push(
      `  ${Math.round(rate).toLocaleString('en')} lines/s handled (${lines.toLocaleString('en')} delivered, ${skipped.toLocaleString('en')} skipped for a slow client) (target: at least 50,000) ${rate >= 50_000 ? 'ok' : 'UNDER TARGET'}`,
    );
    out.push(
      `  panel memory: rss ${mb(before.rss)} before, ${mb(peak)} peak, ${mb(after.rss)} after; heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}`,
    );
  } finally {
    await panel.daemon.process.stopAll();
    await panel.close();
  }
  return out;
}
