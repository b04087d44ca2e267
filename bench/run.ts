import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { testConfig } from '../server/config';
import { LocalDaemon } from '../server/daemon/local';
import { databaseFile, migrateToLatest, openDatabase, type Db } from '../server/db';
import { REPO_ROOT, ensureSpaBuilt } from '../server/lib/spa-build';
import { systemClock } from '../server/lib/time';
import { createApiKey } from '../server/services/api-keys';
import { createServer } from '../server/services/servers';
import { createUser } from '../server/services/users';

/*
 * `npm run bench`: prints figures, asserts nothing (DESIGN: no test asserts a time).
 * 1,000 servers and 10,000 activity entries in a throw-away data dir; API latency through
 * `inject` (no sockets), then the gzip size of the JavaScript the sign-in page loads.
 */

const SERVERS = 1_000;
const ACTIVITY = 10_000;
const WARMUP = 200;
const SAMPLES = 300;
const TARGET_MS = 20;
const TARGET_SIGN_IN_KB = 150;
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
  console.log(`seeded ${SERVERS} servers in ${((t1 - t0) / 1000).toFixed(1)} s, ${ACTIVITY} activity entries in ${((t2 - t1) / 1000).toFixed(1)} s`);
  const key = await createApiKey(db, owner.id, 'bench', now);
  return { token: key.token, server: first.uuid_short };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

async function measure(app: FastifyInstance, label: string, url: string, token: string, target?: number): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const first = await app.inject({ method: 'GET', url, headers });
  if (first.statusCode !== 200) {
    console.log(`${label.padEnd(34)} skipped: GET ${url} answered ${first.statusCode} ${first.body.slice(0, 160)}`);
    return;
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
  console.log(`${label.padEnd(34)} median ${median.toFixed(2)} ms  p95 ${percentile(samples, 95).toFixed(2)} ms  (${rows} rows)${verdict}`);
}

/** Script files the built index.html loads up front: the entry module and its modulepreloads. */
function entryScripts(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (m[1]) refs.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) if (m[1]) refs.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g)) if (m[1]) refs.add(m[1]);
  return [...refs].filter((r) => !/^https?:/.test(r)).map((r) => path.join(distDir, r.replace(/^\//, '')));
}

function gzipKb(buffers: Buffer[]): number {
  return buffers.reduce((sum, b) => sum + gzipSync(b).length, 0) / 1024;
}

/**
 * What a browser really fetches on /auth/login (lazy route chunks included), when Chromium is
 * there; undefined otherwise.
 */
async function measureInBrowser(app: FastifyInstance): Promise<{ kb: number; files: number } | undefined> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) return undefined;
  const { chromium } = await import('@playwright/test');
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type === 'script' || response.url().endsWith('.js')) bodies.push(response.body());
    });
    await page.goto(`${address}/auth/login`, { waitUntil: 'networkidle' });
    const buffers = await Promise.all(bodies);
    return { kb: gzipKb(buffers), files: buffers.length };
  } finally {
    await browser.close();
  }
}

async function signInJs(app: FastifyInstance, buildError: string | undefined): Promise<void> {
  if (buildError) {
    console.log(`sign-in JS: skipped, the SPA does not build (${buildError})`);
    return;
  }
  const distDir = path.join(REPO_ROOT, 'dist');
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    console.log('sign-in JS: skipped, no dist/index.html (AERIE_SKIP_BUILD=1?)');
    return;
  }
  const files = entryScripts(distDir);
  const staticKb = gzipKb(files.map((f) => fs.readFileSync(f)));
  const verdict = (kb: number) => `target < ${TARGET_SIGN_IN_KB} KB: ${kb < TARGET_SIGN_IN_KB ? 'PASS' : 'FAIL'}`;
  console.log(`sign-in JS (index.html entry + modulepreload, ${files.length} files): ${staticKb.toFixed(1)} KB gzip  ${verdict(staticKb)}`);
  try {
    const loaded = await measureInBrowser(app);
    if (loaded)
      console.log(`sign-in JS (loaded by Chromium at /auth/login, ${loaded.files} files): ${loaded.kb.toFixed(1)} KB gzip  ${verdict(loaded.kb)}`);
    else console.log('sign-in JS in a browser: skipped, no Chromium (set CHROMIUM_PATH)');
  } catch (error) {
    console.log(`sign-in JS in a browser: skipped (${(error as Error).message.split('\n')[0]})`);
  }
}

/** bench/files.ts belongs to the file-manager work; run it when it is there. */
async function optionalFileBench(): Promise<void> {
  const file = path.join(REPO_ROOT, 'bench', 'files.ts');
  if (!fs.existsSync(file)) {
    console.log('files: skipped (bench/files.ts is not there yet)');
    return;
  }
  const mod = (await import(pathToFileURL(file).href)) as { benchFiles?: unknown };
  if (typeof mod.benchFiles !== 'function') {
    console.log('files: skipped (bench/files.ts exports no benchFiles())');
    return;
  }
  const result: unknown = await (mod.benchFiles as () => unknown)();
  if (Array.isArray(result)) for (const line of result) console.log(String(line));
  else if (typeof result === 'string') console.log(result);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-'));
  // Measuring needs thousands of requests from one user a minute: the per-user API limit is off here.
  const config = testConfig({ dataDir, logLevel: 'silent', apiRateLimit: 0 });
  const db = openDatabase(databaseFile(dataDir));
  const daemon = new LocalDaemon(dataDir);
  const spaDir = path.join(REPO_ROOT, 'dist');
  let app: FastifyInstance | undefined;
  try {
    await migrateToLatest(db);
    const { token, server } = await seed(db, daemon);
    app = await buildApp({ config, db, daemon, clock: systemClock, spaDir });
    console.log(`\nAPI latency through inject (${WARMUP} warm-up, ${SAMPLES} samples each):`);
    await measure(app, 'GET /api/client?per_page=50', '/api/client?per_page=50', token, TARGET_MS);
    await measure(app, `filter[*]=${SEARCH_TERM}`, `/api/client?filter%5B*%5D=${SEARCH_TERM}`, token, TARGET_MS);
    await measure(app, 'server activity page', `/api/client/servers/${server}/activity`, token);
    console.log('');
    // buildApp reads dist/index.html once, so a fresh build needs a fresh app.
    await app.close();
    app = undefined;
    const buildError = await ensureSpaBuilt().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    app = await buildApp({ config, db, daemon, clock: systemClock, spaDir });
    await signInJs(app, buildError);
    console.log('');
    await optionalFileBench();
  } catch (error) {
    console.log(`bench stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await app?.close();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
