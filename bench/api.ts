import fs from 'node:fs';
import path from 'node:path';
import { startBenchPanel, type BenchPanel, type BenchServer } from './panel';

/*
 * API latency through `inject` (no sockets) on 1,000 servers and 10,000 activity entries, all
 * seeded through the admin CLI: servers in numbered batches, the activity log with activity:import.
 */

const WARMUP = 200;
const SAMPLES = 300;
const TARGET_MS = 20;
const SEARCH_TERM = 'aurora';
const ACTIVITY = 10_000;
const OWNER = 'bench@aerie.test';

// 4 × 249 plainly named servers and 4 that carry the search term: the filter[*] search matches a handful.
const BATCHES = [
  { name: 'Survival Realm', count: 249 },
  { name: 'Creative Island', count: 249 },
  { name: 'Modded Forge', count: 249 },
  { name: 'Vanilla Harbor', count: 249 },
  { name: 'Aurora Network', count: 4 },
];
const EVENTS: [string, Record<string, unknown>][] = [
  ['server:console.command', { command: 'say hello' }],
  ['server:file.write', { file: '/server.properties' }],
  ['server:power.start', {}],
  ['server:settings.rename', { old: 'Old name', new: 'New name' }],
  ['server:backup.start', { name: 'Nightly', locked: false }],
];

async function seed(panel: BenchPanel): Promise<{ token: string; server: BenchServer; seeded: string }> {
  await panel.cli(['user:create', '--email', OWNER, '--username', 'bench', '--password', 'bench-password']);
  const t0 = performance.now();
  const servers: BenchServer[] = [];
  for (const batch of BATCHES) {
    const out = await panel.cli<{ servers: BenchServer[] }>([
      'server:create',
      '--owner',
      OWNER,
      '--name',
      batch.name,
      '--count',
      String(batch.count),
      '--description',
      'Bench server',
    ]);
    servers.push(...out.servers);
  }
  const server = servers[0];
  if (!server) throw new Error('no servers seeded');
  const t1 = performance.now();

  // One entry a minute up to now, by the owner, on the first server.
  const start = Date.now() - (ACTIVITY + 1) * 60_000;
  const entries = Array.from({ length: ACTIVITY }, (_, n) => {
    const [event, properties] = EVENTS[n % EVENTS.length] ?? ['server:power.start', {}];
    return { event, timestamp: new Date(start + n * 60_000).toISOString(), actor: OWNER, ip: '203.0.113.7', properties };
  });
  const file = path.join(panel.dataDir, 'activity.json');
  fs.writeFileSync(file, JSON.stringify(entries));
  await panel.cli(['activity:import', '--server', server.identifier, '--file', file]);
  fs.rmSync(file);
  const t2 = performance.now();

  const { token } = await panel.cli<{ token: string }>(['apikey:create', '--email', OWNER, '--description', 'bench']);
  const seeded = `seeded through the admin CLI: ${servers.length} servers in ${((t1 - t0) / 1000).toFixed(1)} s, ${ACTIVITY} activity entries in ${((t2 - t1) / 1000).toFixed(1)} s`;
  return { token, server, seeded };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

async function measure(panel: BenchPanel, label: string, url: string, token: string, target?: number): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const first = await panel.app.inject({ method: 'GET', url, headers });
  if (first.statusCode !== 200) return `${label.padEnd(34)} skipped: GET ${url} answered ${first.statusCode} ${first.body.slice(0, 160)}`;
  for (let i = 0; i < WARMUP; i++) await panel.app.inject({ method: 'GET', url, headers });
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await panel.app.inject({ method: 'GET', url, headers });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const median = percentile(samples, 50);
  const verdict = target === undefined ? '' : `  target < ${target} ms median: ${median < target ? 'ok' : 'OVER TARGET'}`;
  const body = first.json<{ meta?: { pagination?: { total?: number } }; data?: unknown[] }>();
  const rows = `${body.data?.length ?? '?'} of ${body.meta?.pagination?.total ?? '?'}`;
  return `${label.padEnd(34)} median ${median.toFixed(2)} ms  p95 ${percentile(samples, 95).toFixed(2)} ms  (${rows} rows)${verdict}`;
}

export async function benchApi(): Promise<string[]> {
  const panel = await startBenchPanel();
  try {
    const { token, server, seeded } = await seed(panel);
    return [
      seeded,
      `API latency through inject (${WARMUP} warm-up, ${SAMPLES} samples each):`,
      await measure(panel, 'GET /api/client?per_page=50', '/api/client?per_page=50', token, TARGET_MS),
      await measure(panel, `filter[*]=${SEARCH_TERM}`, `/api/client?filter%5B*%5D=${SEARCH_TERM}`, token, TARGET_MS),
      await measure(panel, 'server activity page', `/api/client/servers/${server.identifier}/activity`, token),
    ];
  } finally {
    await panel.close();
  }
}
