import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect, type E2eUser } from './fixtures';
import { e2eDataDir, runPanelCli } from './support/cli';

/*
 * The dashboard with more servers than one page (the API pages by 50). Sixty servers take a while
 * to seed through the CLI (one process each, no batch command), so the file seeds once, a few
 * processes at a time, and its tests run in one worker against that data.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const SERVERS = 60;
const PARALLEL = 2;
const run = promisify(execFile);

/** `panel server:create …`, retried: two CLI writers at once can get "database is locked" from SQLite. */
async function createServer(owner: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await run(TSX, [path.join(ROOT, 'server', 'cli.ts'), 'server:create', '--owner', owner, '--name', name], {
        cwd: ROOT,
        env: { ...process.env, PANEL_DATA_DIR: e2eDataDir(), LOG_LEVEL: 'silent' },
      });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

test.describe.configure({ mode: 'default' });

let owner: E2eUser;

test.beforeAll(async () => {
  test.setTimeout(360_000);
  const tag = `list${Date.now().toString(36)}`;
  const password = `pw-${tag}-secret`;
  owner = {
    ...runPanelCli<Omit<E2eUser, 'password'>>(['user:create', '--email', `${tag}@e2e.test`, '--username', tag, '--password', password, '--first-name', 'List', '--last-name', 'Owner']),
    password,
  };
  const names = Array.from({ length: SERVERS }, (_, i) => `Fleet ${String(i + 1).padStart(2, '0')}`);
  const workers = Array.from({ length: PARALLEL }, async () => {
    for (let name = names.shift(); name !== undefined; name = names.shift()) await createServer(owner.email, name);
  });
  await Promise.all(workers);
});

const rows = (page: import('@playwright/test').Page) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem');

test('search narrows the list and is kept in the URL', async ({ page, signIn }) => {
  await signIn(page, owner);
  await page.goto('/');
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByText('60 servers')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search servers' }).fill('Fleet 07');
  await expect(page).toHaveURL(/\?q=Fleet\+07$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Fleet 07' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search servers' })).toHaveValue('Fleet 07');
  await expect(rows(page)).toHaveCount(1);
});

test('a search with no match says so', async ({ page, signIn }) => {
  await signIn(page, owner);
  await page.goto('/?q=nothing-like-this');
  await expect(page.getByText('No servers match “nothing-like-this”')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search', exact: true }).click();
  await expect(rows(page)).toHaveCount(50);
  await expect(page).toHaveURL(/\/$/);
});

test('paging shows page 2 in ?page=2 and Back returns to page 1', async ({ page, signIn }) => {
  await signIn(page, owner);
  await page.goto('/');
  await expect(rows(page)).toHaveCount(50);
  const pages = page.getByRole('navigation', { name: 'Server list pages' });

  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(rows(page)).toHaveCount(10);
  await expect(pages.getByText('Page 2 of 2')).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(rows(page)).toHaveCount(50);
  await expect(pages.getByText('Page 1 of 2')).toBeVisible();
});

test('a root admin can switch to every server on the panel', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/');
  await expect(page.getByText('No servers yet')).toBeVisible();

  const all = page.getByRole('switch', { name: 'Show all servers' });
  await all.click();
  await expect(all).toHaveAttribute('aria-checked', 'true');
  await expect(page).toHaveURL(/\?all=1$/);
  await expect(rows(page).first()).toBeVisible();
});
