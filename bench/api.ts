import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { testConfig } from '../server/config';
import { LocalDaemon } from '../server/daemon/local';
import { databaseFile, migrateToLatest, openDatabase, type Db } from '../server/db';
import { systemClock } from '../server/lib/time';
import { createApiKey } from '../server/services/api-keys';
import { createServer } from '../server/services/servers';
import { createUser } from '../server/services/users';

/*
 * API latency through `inject` (no sockets) on 1,000 servers and 10,000 activity entries.
 */

const SERVERS = 1_000;
const ACTIVITY = 10_000;
const WARMUP = 200;
const SAMPLES = 300;
const TARGET_MS = 20;
const SEARCH_TERM = 'aurora';

const ADJECTIVES = ['Survival', 'Creative', 'Modded', 'Vanilla', 'Hardcore', 'Peaceful', 'Skyblock', 'Prison', 'Factions', 'Lobby'];
const NOUNS = ['Realm', 'Island', 'Valley', 'Forge', 'Outpost', 'Harbor', 'Summit', 'Hollow', 'Citadel', 'Meadow', 'Canyon'];
const EVENTS: [string, Record<string, unknown>][] = [
  ['server:console.command', { command: 'say hello' }],
  ['server:file.write', { file: '/server.properties' }],
  ['server:power.start', {}],
  ['server:settings.rename', { old: 'Old name', new: 'New name' }],
  ['server:backup.start', { name: 'Nightly', locked: false }],
];

function serverName(i: number): string {
  // Every 250th server carries the search term: the filter[*] search matches a handful.
  if (i % 250 === 0) return `Aurora Network ${i}`;
  return `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[Math.floor(i / ADJECTIVES.length) % NOUNS.length]} ${i}`;
}

async function seed(db: Db, daemon: LocalDaemon) {
  const now = systemClock.now();
  const owner = await createUser(db, { email: 'bench@aerie.test', username: 'bench', password: 'bench-password' }, now);
  const t0 = performance.now();
  let first: { id: number; uuid_short: string } | undefined;
  // Through the same service as the CLI, so rows have exactly the shape real ones have.
  for (let i = 0; i < SERVERS; i++) {
    const s = await createServer(db, daemon, { ownerId: owner.id, name: serverName(i), description: `Bench server ${i}` }, now);
    first ??= s;
  }
  if (!first) throw new Error('no servers seeded');
  const t1 = performance.now();

  await db.transaction().execute(async (trx) => {
    const start = now.getTime() - ACTIVITY * 60_000;
    for (let done = 0; done < ACTIVITY; done += 500) {
      const rows = Array.from({ length: Math.min(500, ACTIVITY - done) }, (_, k) => {
        const n = done + k;
        const [event, properties] = EVENTS[n % EVENTS.length] ?? ['server:power.start', {}];
        return {
          event,
          ip: '203.0.113.7',
          actor_id: owner.id,
          api_key_id: null,
          properties: JSON.stringify(properties),
          description: null,
          batch: null,
          timestamp: new Date(start + n * 60_000).toISOString(),
        };
      });
      const ids = await trx.insertInto('activity_logs').values(rows).returning('id').execute();
      const serverId = first?.id ?? 0;
      await trx
        .insertInto('activity_subjects')
        .values(ids.map((r) => ({ activity_log_id: r.id, subject_type: 'server', subject_id: serverId })))
        .execute();
    }
  });
  const t2 = performance.now();
  const seeded = `seeded ${SERVERS} servers in ${((t1 - t0) / 1000).toFixed(1)} s, ${ACTIVITY} activity entries in ${((t2 - t1) / 1000).toFixed(1)} s`;
  const key = await createApiKey(db, owner.id, 'bench', now);
  return { token: key.token, server: first.uuid_short, seeded };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

async function measure(app: FastifyInstance, label: string, url: string, token: string, target?: number): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const first = await app.inject({ method: 'GET', url, headers });
  if (first.statusCode !== 200) {
    return `${label.padEnd(34)} skipped: GET ${url} answered ${first.statusCode} ${first.body.slice(0, 160)}`;
  }
  for (let i = 0; i < WARMUP; i++) await app.inject({ method: 'GET', url, headers });
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await app.inject({ method: 'GET', url, headers });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const median = percentile(samples, 50);
  const verdict = target === undefined ? '' : `  target < ${target} ms median: ${median < target ? 'PASS' : 'FAIL'}`;
  const body = first.json() as { meta?: { pagination?: { total?: number } }; data?: unknown[] };
  const rows = `${body.data?.length ?? '?'} of ${body.meta?.pagination?.total ?? '?'}`;
  return `${label.padEnd(34)} median ${median.toFixed(2)} ms  p95 ${percentile(samples, 95).toFixed(2)} ms  (${rows} rows)${verdict}`;
}

export async function benchApi(): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-'));
  // Measuring needs thousands of requests from one user a minute: the per-user API limit is off here.
  const config = testConfig({ dataDir, logLevel: 'silent', apiRateLimit: 0 });
  const db = openDatabase(databaseFile(dataDir));
  const daemon = new LocalDaemon(dataDir);
  let app: FastifyInstance | undefined;
  try {
    await migrateToLatest(db);
    const { token, server, seeded } = await seed(db, daemon);
    app = await buildApp({ config, db, daemon, clock: systemClock });
    return [
      seeded,
      `API latency through inject (${WARMUP} warm-up, ${SAMPLES} samples each):`,
      await measure(app, 'GET /api/client?per_page=50', '/api/client?per_page=50', token, TARGET_MS),
      await measure(app, `filter[*]=${SEARCH_TERM}`, `/api/client?filter%5B*%5D=${SEARCH_TERM}`, token, TARGET_MS),
      await measure(app, 'server activity page', `/api/client/servers/${server}/activity`, token),
    ];
  } finally {
    await app?.close();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
