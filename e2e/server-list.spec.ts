import { test, expect, type E2eUser } from './fixtures';
import { runPanelCli } from './support/cli';

/*
 * The dashboard with more servers than one page (the API pages by 50). The sixty servers are
 * seeded once, in one CLI call (`--count`), and the tests of this file share them.
 */

const SERVERS = 60;

test.describe.configure({ mode: 'default' });

let owner: E2eUser;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const tag = `list${Date.now().toString(36)}`;
  const password = `pw-${tag}-secret`;
  owner = {
    ...runPanelCli<Omit<E2eUser, 'password'>>([
      'user:create',
      '--email',
      `${tag}@e2e.test`,
      '--username',
      tag,
      '--password',
      password,
      '--first-name',
      'List',
      '--last-name',
      'Owner',
    ]),
    password,
  };
  runPanelCli(['server:create', '--owner', owner.email, '--name', 'Fleet', '--count', String(SERVERS)]);
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
