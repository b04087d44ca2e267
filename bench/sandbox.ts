import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type WebSocket from 'ws';
import { connect, onPath, waitState, within } from './console';
import { startBenchPanel, type BenchPanel, type BenchServer } from './panel';

/*
 * What the sandbox costs a server (`npm run bench -- sandbox`; printed, never asserted):
 * - start time: from the power `start` call to the `running` status on the console socket, and to
 *   the demo game's "Done" line, median of STARTS starts (target: under 1 s);
 * - a player connection: the server's program replaced (files/write) by a TCP sink on its
 *   allocation port; SINK_MB sent to the allocation's address as a player would, against the same
 *   program run directly on the host on a loopback port (target: at least 0.8× the direct rate).
 * Nothing here knows how the sandbox is networked: with its own network namespace (allocations
 * forwarded in by `pasta`) or the host's, the player connects to the same address and port.
 */

const STARTS = 7;
const SINK_MB = 512;
const SINK_RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// Counts what a connection sends and answers with the count when it ends. It prints its port and
// network namespace, so the bench can say whether the server shared the host's network.
const SINK_PROGRAM = `
import fs from 'node:fs';
import net from 'node:net';
const i = process.argv.indexOf('--port');
const port = Number((i > 0 ? process.argv[i + 1] : undefined) ?? process.env.SERVER_PORT ?? 0);
let ns = 'unknown';
try { ns = fs.readlinkSync('/proc/self/ns/net'); } catch {}
const server = net.createServer((socket) => {
  let bytes = 0;
  socket.on('data', (d) => { bytes += d.length; });
  socket.on('end', () => socket.end(\`got \${bytes}\\n\`));
  socket.on('error', () => socket.destroy());
});
server.listen(port, '0.0.0.0', () => {
  console.log(\`SINK READY \${server.address().port} \${ns}\`);
  console.log('Done (0s)! For help, type "help"'); // the egg's "running" line
});
process.stdin.on('data', (d) => { if (String(d).includes('stop')) process.exit(0); });
`;

/** Sends `mb` MiB to host:port and waits for the sink's count; MiB/s. */
async function sendTo(host: string, port: number, mb: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const total = mb * 1024 * 1024;
  const socket = net.connect({ host, port });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const t0 = performance.now();
  const reply = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
  }
  socket.end();
  const answer = await within(reply, 60_000, `no count from ${host}:${port}`);
  const seconds = (performance.now() - t0) / 1000;
  if (answer.trim() !== `got ${total}`) throw new Error(`the sink at ${host}:${port} answered ${JSON.stringify(answer)}`);
  return mb / seconds;
}

/**
 * CPU seconds the processes whose command line has every one of `words` have used so far (Linux
 * /proc); a word also matches an argument ending in `/word` (pasta's `address/port`).
 */
function cpuSeconds(...words: string[]): number {
  const tick = 100; // USER_HZ on Linux
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!words.every((w) => cmdline.some((arg) => arg === w || arg.endsWith(`/${w}`)))) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [utime = '0', stime = '0'] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 13);
      ticks += Number(utime) + Number(stime);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / tick;
}

/** Runs `send` and returns its rate with the CPU seconds per GiB of the sender (this process) and of each named process group. */
async function measured(send: () => Promise<number>, groups: Record<string, string[]>): Promise<{ rate: number; cpu: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(groups).map(([k, words]) => [k, cpuSeconds(...words)]));
  const self = process.cpuUsage();
  const rate = await send();
  const gib = SINK_MB / 1024;
  const used = process.cpuUsage(self);
  const cpu: Record<string, number> = { sender: (used.user + used.system) / 1e6 / gib };
  for (const [k, words] of Object.entries(groups)) cpu[k] = (cpuSeconds(...words) - (before[k] ?? 0)) / gib;
  return { rate, cpu };
}

/** The sink run directly on the host on a free loopback port, for `use`'s length. */
async function withDirectSink<T>(dir: string, use: (port: number) => Promise<T>): Promise<T> {
  const file = path.join(dir, 'direct-sink.mjs');
  fs.writeFileSync(file, SINK_PROGRAM);
  const child = spawn(process.execPath, [file, '--port', '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const ready = new Promise<number>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        const match = /SINK READY (\d+)/.exec(String(d));
        if (match) resolve(Number(match[1]));
      }),
    );
    return await use(await within(ready, 10_000, 'the direct sink did not start'));
  } finally {
    child.kill();
  }
}

interface Allocation {
  attributes: { ip: string; port: number; is_default: boolean };
}

async function defaultAllocation(panel: BenchPanel, token: string, server: BenchServer): Promise<{ ip: string; port: number }> {
  const res = await panel.api(token, 'GET', `/api/client/servers/${server.uuid}`);
  const body = JSON.parse(res.body) as { attributes: { relationships: { allocations: { data: Allocation[] } } } };
  const all = body.attributes.relationships.allocations.data;
  const chosen = all.find((a) => a.attributes.is_default) ?? all[0];
  if (!chosen) throw new Error('the server has no allocation');
  return { ip: chosen.attributes.ip, port: chosen.attributes.port };
}

export async function benchSandbox(): Promise<string[]> {
  const panel = await startBenchPanel();
  const out: string[] = [];
  try {
    const base = await panel.listen();
    const { server, token } = await panel.owner('sandbox');
    const power = (signal: string) => panel.api(token, 'POST', `/api/client/servers/${server.uuid}/power`, { signal });
    let onStatus: (state: string) => void = () => undefined;
    let onLine: (line: string) => void = () => undefined;
    const ws: WebSocket = await connect(panel, base, token, server, (frame) => {
      if (frame.event === 'status') onStatus(frame.args?.[0] ?? '');
      if (frame.event === 'console output') onLine(frame.args?.[0] ?? '');
    });
    const until = (states: string) => new Promise<void>((resolve) => (onStatus = (s) => s === states && resolve()));

    // Start time of the demo game.
    const running: number[] = [];
    const done: number[] = [];
    for (let i = 0; i < STARTS; i += 1) {
      const isRunning = until('running');
      const isDone = new Promise<void>((resolve) => (onLine = (line) => line.includes(')! For help, type') && resolve()));
      const t0 = performance.now();
      await power('start');
      await within(
        isRunning.then(() => running.push(performance.now() - t0)),
        30_000,
        'the demo game was not running',
        ws,
      );
      await within(
        isDone.then(() => done.push(performance.now() - t0)),
        30_000,
        'the demo game printed no Done line',
        ws,
      );
      const isOffline = until('offline');
      await power('stop');
      await within(isOffline, 30_000, 'the demo game did not stop', ws);
    }
    const m = median(running);
    out.push(`sandbox: demo game start, power "start" call → status, median of ${STARTS} starts`);
    out.push(
      `  running ${m.toFixed(0)} ms (min ${Math.min(...running).toFixed(0)}, max ${Math.max(...running).toFixed(0)}) (target: under 1 s) ${m < 1000 ? 'ok' : 'OVER TARGET'}`,
    );
    out.push(`  "Done" line ${median(done).toFixed(0)} ms`);

    // A player connection through the allocation against a direct loopback one.
    const allocation = await defaultAllocation(panel, token, server);
    await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/write?file=${encodeURIComponent('/demo-game.mjs')}`, SINK_PROGRAM);
    const ready = new Promise<string>((resolve) => (onLine = (line) => line.includes('SINK READY') && resolve(line)));
    await power('start');
    const readyLine = await within(ready, 30_000, 'the sink did not start in the sandbox', ws);
    await waitState(panel, token, server, 'running');
    const host = allocation.ip === '0.0.0.0' ? '127.0.0.1' : allocation.ip;
    // Alternated, so that load from elsewhere on the machine weighs on both alike.
    const sandboxed: number[] = [];
    const direct: number[] = [];
    const cpuThrough: Record<string, number>[] = [];
    const cpuDirect: Record<string, number>[] = [];
    await withDirectSink(panel.dataDir, async (port) => {
      for (let i = 0; i < SINK_RUNS; i += 1) {
        const through = await measured(() => sendTo(host, allocation.port, SINK_MB), {
          pasta: ['pasta', '-t', String(allocation.port)],
          sink: ['demo-game.mjs'],
        });
        sandboxed.push(through.rate);
        cpuThrough.push(through.cpu);
        const plain = await measured(() => sendTo('127.0.0.1', port, SINK_MB), { sink: ['--port', '0'] });
        direct.push(plain.rate);
        cpuDirect.push(plain.cpu);
      }
    });
    const cpuLine = (runs: Record<string, number>[]) =>
      Object.keys(runs[0] ?? {})
        .map((k) => `${k} ${median(runs.map((r) => r[k] ?? NaN)).toFixed(2)}`)
        .join(', ');
    ws.close();
    await power('kill');
    let hostNs = 'unknown';
    try {
      hostNs = fs.readlinkSync('/proc/self/ns/net');
    } catch {
      // Without /proc the mode stays unknown; the figures still stand.
    }
    const serverNs = /SINK READY \d+ (\S+)/.exec(readyLine)?.[1] ?? 'unknown';
    const mode =
      serverNs === 'unknown' || hostNs === 'unknown' ? 'unknown' : serverNs === hostNs ? "the host's network" : 'its own network namespace';
    const ratio = median(sandboxed) / median(direct);
    out.push(
      `sandbox: a player sending ${SINK_MB} MiB to the server's allocation ${host}:${allocation.port}, median of ${SINK_RUNS} (server in ${mode}; pasta on PATH: ${onPath('pasta') ? 'yes' : 'no'})`,
    );
    out.push(`  through the allocation ${median(sandboxed).toFixed(0)} MiB/s, direct loopback ${median(direct).toFixed(0)} MiB/s`);
    out.push(`  ratio ${ratio.toFixed(2)}× (target: at least 0.8×) ${ratio >= 0.8 ? 'ok' : 'UNDER TARGET'}`);
    // Each process of a connection is one thread: where every one has a core of its own, the slowest alone sets the rate.
    out.push(`  CPU seconds per GiB, through the allocation: ${cpuLine(cpuThrough)}; direct: ${cpuLine(cpuDirect)} (${os.cpus().length} cores here)`);
  } finally {
    await panel.daemon.process.stopAll();
    await panel.close();
  }
  return out;
}
