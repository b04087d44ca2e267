import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Locator, Page, Request, Response } from '@playwright/test';
import { signInThroughApi } from '../e2e/support/sign-in';
import { ensureSpaBuilt } from '../server/lib/spa-build';
import { chunkPackages, describePackages, libraryShare, type ChunkPackages } from './chunks';
import { startBenchPanel, type BenchServer } from './panel';

/*
 * What each page costs to load: every script and stylesheet real Chromium fetches on a cold visit
 * (fresh browser context, so nothing cached), gzipped here with zlib's default level, since what
 * a proxy in front of the panel sends is gzip or better. A new page is one more row in PAGES.
 */

interface PageContext {
  server: BenchServer;
  /** A file in the server's volume, for the editor. */
  file: string;
}

interface PageSpec {
  name: string;
  path: (ctx: PageContext) => string;
  signedIn: boolean;
  /** Budget for JS + CSS (gzip KB). */
  budgetKb: number;
  /** Shows when the page has what it loaded for; lazy chunks that follow the data are still counted. */
  ready: (page: Page, ctx: PageContext) => Locator;
  /**
   * The page's own heavy library: the budget applies to what the page loads apart from the
   * chunks made mostly of these packages, and the whole figure is shown beside it.
   */
  heavy?: { library: string; packages: RegExp; /** Budget for the whole page, the library included (gzip KB). */ budgetKb?: number };
}

// Issue 26's targets. Every server page is measured before its own heavy library (xterm.js,
// CodeMirror), which the page's figure with the library shows beside it.
const SERVER_PAGE_KB = 150;

export const PAGES: readonly PageSpec[] = [
  { name: 'sign-in', path: () => '/auth/login', signedIn: false, budgetKb: 95, ready: (p) => p.getByLabel('Username or email') },
  { name: 'server list', path: () => '/', signedIn: true, budgetKb: 120, ready: (p) => p.getByRole('list', { name: 'Servers' }) },
  {
    name: 'console',
    path: (c) => `/server/${c.server.identifier}`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    // The terminal has drawn its rows once xterm.js has loaded and opened.
    ready: (p) => p.getByRole('region', { name: 'Console' }).locator('.xterm-rows'),
    // xterm.js and its fit and web-links addons (search loads on first Ctrl+F). Issue 8 asks for the
    // figure; like the editor with CodeMirror, the budget is for the page before its heavy library.
    heavy: { library: 'xterm.js', packages: /^@xterm\// },
  },
  {
    name: 'server overview',
    path: (c) => `/server/${c.server.identifier}/overview`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByRole('region', { name: 'SFTP' }),
  },
  {
    name: 'files',
    path: (c) => `/server/${c.server.identifier}/files`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p, c) => p.getByRole('row', { name: c.file, exact: true }),
  },
  {
    name: 'editor',
    path: (c) => `/server/${c.server.identifier}/file/${c.file}`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p, c) => p.getByRole('textbox', { name: `Contents of ${c.file}` }),
    // CodeMirror, its Lezer parsers and the three small packages it is built on.
    heavy: { library: 'CodeMirror', packages: /^(@codemirror\/|@lezer\/|style-mod$|w3c-keyname$|crelt$)/ },
  },
  {
    name: 'databases',
    path: (c) => `/server/${c.server.identifier}/databases`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    // The bench server has no database: the empty state shows once the list has loaded.
    ready: (p) => p.getByText('No databases yet'),
  },
  {
    name: 'network',
    path: (c) => `/server/${c.server.identifier}/network`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByRole('list', { name: 'Allocations' }),
  },
  {
    name: 'startup',
    path: (c) => `/server/${c.server.identifier}/startup`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByLabel('Startup command preview'),
  },
  {
    name: 'users',
    path: (c) => `/server/${c.server.identifier}/users`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    // The bench server has no subuser: the empty state shows once the list has loaded.
    ready: (p) => p.getByText('No users yet'),
  },
  {
    name: 'backups',
    path: (c) => `/server/${c.server.identifier}/backups`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    // The bench server has no backup: the empty state shows once the list has loaded.
    ready: (p) => p.getByText('No backups yet'),
  },
  {
    name: 'schedules',
    path: (c) => `/server/${c.server.identifier}/schedules`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    // The bench server has no schedule: the empty state shows once the list has loaded.
    ready: (p) => p.getByText('No schedules yet'),
  },
  {
    name: 'settings',
    path: (c) => `/server/${c.server.identifier}/settings`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByLabel('Server name'),
  },
  {
    name: 'activity',
    path: (c) => `/server/${c.server.identifier}/activity`,
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByRole('list', { name: 'Activity entries' }),
  },
  // The QR library is loaded only once two-factor setup starts, so not by any of these.
  { name: 'account', path: () => '/account', signedIn: true, budgetKb: SERVER_PAGE_KB, ready: (p) => p.getByLabel('New e-mail address') },
  {
    name: 'account two-factor',
    path: () => '/account/two-factor',
    signedIn: true,
    budgetKb: SERVER_PAGE_KB,
    ready: (p) => p.getByRole('button', { name: 'Enable' }),
  },
];

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

interface Asset {
  /** `assets/x-hash.js`, as the build names it. */
  file: string;
  kind: 'js' | 'css';
  /** gzip bytes */
  gz: number;
}

function kind(response: Response): 'js' | 'css' | undefined {
  const type = response.request().resourceType();
  const url = new URL(response.url()).pathname;
  if (type === 'script' || url.endsWith('.js') || url.endsWith('.mjs')) return 'js';
  if (type === 'stylesheet' || url.endsWith('.css')) return 'css';
  return undefined;
}

/** Follows the page's requests from the start; `settled()` resolves once none has been in flight for `quietMs`. */
function trackNetwork(page: Page): { settled: (quietMs?: number) => Promise<void> } {
  const inFlight = new Set<Request>();
  let last = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    last = Date.now();
  });
  const done = (request: Request) => {
    inFlight.delete(request);
    last = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async settled(quietMs = 700) {
      while (inFlight.size > 0 || Date.now() - last < quietMs) await page.waitForTimeout(100);
    },
  };
}

async function load(browser: Browser, baseURL: string, storage: string | undefined, spec: PageSpec, ctx: PageContext): Promise<Asset[]> {
  const context = await browser.newContext({ baseURL, storageState: spec.signedIn ? storage : undefined });
  try {
    const page = await context.newPage();
    const network = trackNetwork(page);
    const assets: Promise<Asset | undefined>[] = [];
    page.on('response', (response) => {
      const k = kind(response);
      if (!k || response.status() !== 200) return;
      const file = new URL(response.url()).pathname.replace(/^\//, '');
      assets.push(
        response.body().then(
          (body) => ({ file, kind: k, gz: gzipSync(body).length }),
          () => undefined,
        ),
      );
    });
    await page.goto(spec.path(ctx), { waitUntil: 'networkidle' });
    await spec.ready(page, ctx).first().waitFor({ timeout: 20_000 });
    // Lazy chunks that follow the data (the editor's language mode) are in once the network is quiet.
    await network.settled();
    return (await Promise.all(assets)).filter((a) => a !== undefined);
  } finally {
    await context.close();
  }
}

const kb = (assets: readonly Asset[], k: 'js' | 'css') => assets.filter((a) => a.kind === k).reduce((n, a) => n + a.gz, 0) / 1024;

function row(name: string, assets: readonly Asset[], budget?: number): string {
  const [js, css] = [kb(assets, 'js'), kb(assets, 'css')];
  const total = js + css;
  const verdict = budget === undefined ? 'no budget' : `≤ ${budget} KB  ${total <= budget ? 'ok' : 'OVER BUDGET'}`;
  return `  ${name.padEnd(30)} ${js.toFixed(1).padStart(7)} ${css.toFixed(1).padStart(7)} ${total.toFixed(1).padStart(8)} ${String(assets.length).padStart(6)}   ${verdict}`;
}

/** With AERIE_BENCH_CHUNKS=1: each file a page loaded, largest first, with the packages in it. */
function chunkLines(assets: readonly Asset[], chunks: Map<string, ChunkPackages> | undefined, heavy?: RegExp): string[] {
  if (process.env.AERIE_BENCH_CHUNKS !== '1') return [];
  return [...assets]
    .sort((a, b) => b.gz - a.gz)
    .map((a) => {
      const packages = chunks?.get(a.file);
      const share = packages && heavy ? `  (${Math.round(libraryShare(packages, heavy) * 100)}% heavy library)` : '';
      const names = packages ? `  ${describePackages(packages)}` : '';
      return `      ${(a.gz / 1024).toFixed(1).padStart(7)}  ${a.file}${share}${names}`;
    });
}

/** `npm run bench -- pages`: one line per page (and per heavy-library variant). */
export async function benchPages(): Promise<string[]> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) return [`pages: skipped, no Chromium at ${executablePath} (set CHROMIUM_PATH)`];
  try {
    await ensureSpaBuilt();
  } catch (error) {
    return [`pages: skipped, the SPA does not build (${error instanceof Error ? error.message : String(error)})`];
  }
  const { chromium } = await import('@playwright/test');
  const panel = await startBenchPanel();
  const browser = await chromium.launch({ executablePath, args: LAUNCH_ARGS });
  try {
    const { user, server, token } = await panel.owner('pages');
    const file = 'server.properties';
    // Through the API, which also leaves an entry for the activity page to show.
    await panel.api(token, 'POST', `/api/client/servers/${server.uuid}/files/write?file=%2F${file}`, 'motd=A Minecraft Server\nmax-players=20\n');
    const baseURL = await panel.listen();

    const signIn = await browser.newContext({ baseURL });
    await signInThroughApi(await signIn.newPage(), user);
    const storage = path.join(panel.dataDir, 'storage-state.json');
    await signIn.storageState({ path: storage });
    await signIn.close();

    const ctx: PageContext = { server, file };
    const lines = [
      'Per-page JS and CSS: every script and stylesheet Chromium loads on a cold visit, gzip (zlib default level), KB',
      `  ${'page'.padEnd(30)} ${'JS'.padStart(7)} ${'CSS'.padStart(7)} ${'total'.padStart(8)} ${'files'.padStart(6)}   budget (JS + CSS)`,
    ];
    const chunks = await chunkPackages().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (chunks instanceof Error) lines.push(`  (the chunks could not be mapped to packages: ${chunks.message.split('\n')[0]})`);
    const known = chunks instanceof Error ? undefined : chunks;
    for (const spec of PAGES) {
      const assets = await load(browser, baseURL, storage, spec, ctx);
      if (!spec.heavy) {
        lines.push(row(spec.name, assets, spec.budgetKb), ...chunkLines(assets, known));
        continue;
      }
      const heavy = spec.heavy.packages;
      if (known) {
        const unknown = assets.filter((a) => a.kind === 'js' && !known.has(a.file));
        if (unknown.length > 0) lines.push(`  (${unknown.length} loaded chunks are not in a fresh build: is dist/ stale?)`);
        // A chunk counts as the library's when most of its code is; the small rest of such a chunk goes with it.
        const own = assets.filter((a) => {
          const packages = known.get(a.file);
          return a.kind === 'css' || !packages || libraryShare(packages, heavy) <= 0.5;
        });
        lines.push(row(`${spec.name}, before ${spec.heavy.library}`, own, spec.budgetKb));
      } else {
        lines.push(`  ${spec.name}, before ${spec.heavy.library}: skipped, the chunks could not be mapped to packages`);
      }
      lines.push(row(`${spec.name}, with ${spec.heavy.library}`, assets, spec.heavy.budgetKb), ...chunkLines(assets, known, heavy));
    }
    return lines;
  } finally {
    await browser.close();
    await panel.close();
  }
}
