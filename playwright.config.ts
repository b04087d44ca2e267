import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/*
 * Browser journeys against the real thing: `npm start` (SPA build + API on one port) with a fresh
 * data dir, driven by Debian's Chromium (never a Playwright browser download).
 *
 * E2E_PORT lets several people run Playwright from one checkout at once. This file is evaluated
 * again in every worker process; the data dir is created once, in the runner, and handed to
 * workers (and fixtures) through E2E_DATA_DIR, which they inherit.
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
const BASE_URL = `http://127.0.0.1:${PORT}`;

if (!process.env.E2E_DATA_DIR) {
  const dir = path.resolve('.tmp', `e2e-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  process.env.E2E_DATA_DIR = dir;
  // Two folders below the repository, as the CLI's own modules are: it finds the repository's
  // files (the demo game, the SPA build) from where it sits.
  process.env.E2E_CLI_BUNDLE = path.join(`${dir}-cli`, 'cli.mjs');
  process.env.AERIE_NODE_BUNDLE = path.join(`${dir}-cli`, 'node.mjs');
}
const DATA_DIR = process.env.E2E_DATA_DIR;
/*
 * The panel sends its mail (password-reset links) to an SMTP server that global-setup.ts starts
 * on this port; each received mail is one JSON line in E2E_MAIL_FILE, which specs read.
 */
const MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? PORT + 20_000);
process.env.E2E_MAIL_PORT = String(MAIL_PORT);
process.env.E2E_MAIL_FILE ??= path.join(DATA_DIR, 'e2e-mail.jsonl');
// A run creates well over a hundred servers, each taking the lowest free port of the range: the
// panel and the CLI the tests run (which inherits this environment) must share a wide one.
process.env.PANEL_ALLOCATION_PORTS ??= '25565-35565';

const CHROMIUM = {
  ...devices['Desktop Chrome'],
  // A new account's theme follows the system's, and Playwright's system is light unless told:
  // the specs see the dark theme, as most users do; a light run asks for it (emulateMedia).
  colorScheme: 'dark' as const,
  // With executablePath set Playwright never looks in ~/.cache/ms-playwright.
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  },
};

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  // Two workers, the panel, its sandboxed processes and Chromium share two cores in CI: a first
  // page load behind a CLI seed can take several seconds there without anything being wrong.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: '**/*.panel-wide.spec.ts',
      teardown: 'panel-wide',
      use: CHROMIUM,
    },
    {
      // Tests of settings every page sees (the panel's name, 2FA required of everyone): alone,
      // after every other spec (chromium's teardown), so that none of those sees them. A run of
      // chosen specs runs these two too, unless given --no-deps.
      name: 'panel-wide',
      testMatch: '**/*.panel-wide.spec.ts',
      use: CHROMIUM,
    },
  ],
  webServer: {
    // The way users start it: builds the SPA when stale, migrates, serves SPA and API together.
    command: 'npm start',
    // Any HTTP answer means "up"; Playwright accepts 2xx, 3xx and 400-403, and this one is a 401.
    url: `${BASE_URL}/api/client`,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PANEL_DATA_DIR: DATA_DIR,
      PANEL_SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Fixtures give each test its own X-Forwarded-For address (see e2e/fixtures.ts).
      TRUST_PROXY: 'true',
      PANEL_ALLOCATION_PORTS: process.env.PANEL_ALLOCATION_PORTS,
      // The panel's managed MariaDB: a port of this run's own, so runs on other E2E_PORTs can share a machine.
      PANEL_MARIADB_PORT: process.env.PANEL_MARIADB_PORT ?? String(PORT + 10_000),
      // SFTP on a port of this run's own too.
      PANEL_SFTP_PORT: process.env.PANEL_SFTP_PORT ?? String(PORT + 30_000),
      SMTP_URL: `smtp://127.0.0.1:${MAIL_PORT}`,
      // The browser tests do not test limits: servers start where no cgroups can hold them, too.
      PANEL_ALLOW_UNLIMITED_SERVERS: process.env.PANEL_ALLOW_UNLIMITED_SERVERS ?? 'true',
    },
    reuseExistingServer: !process.env.CI && process.env.E2E_REUSE_SERVER === '1',
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
