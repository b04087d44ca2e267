import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { row } from './files-support';

/*
 * What a new user notices first: a quiet console, actions that say why they are unavailable, and
 * a layout that holds still at a common desktop width. Screenshots go to .tmp/ for a look.
 */

/** Every console error or warning and every failed response the page produces from now on. */
function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) seen.push(`${r.status()} ${r.url()}`);
  });
  return seen;
}

test('a fresh visit to the sign-in page logs nothing to the console', async ({ page }) => {
  const seen = watchConsole(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  expect(seen).toEqual([]);
});

test('signed-in pages log no warnings (no router hydration warning)', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'eula.txt': 'eula=true' });
  const seen = watchConsole(page);
  await page.goto('/');
  await expect(page.getByRole('link', { name: server.name })).toBeVisible();
  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'eula.txt')).toBeVisible();
  expect(seen).toEqual([]);
});

test('a suspended server shows its file actions disabled, with the reason', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  cli(['server:status', '--server', server.identifier, '--status', 'suspended']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);
  await expect(page.getByText('They cannot be listed or changed because the server is suspended.')).toBeVisible();
  for (const name of ['New folder', 'New file', 'Upload']) {
    const button = page.getByRole('button', { name });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/because the server is suspended/);
  }
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

test.describe('at 1280 px wide', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the Modified column is whole, and selecting does not move the list', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
    const owner = makeUser();
    const server = makeServer(owner.email);
    await signIn(page, owner);
    await filesOf(server, page).seed({ 'plugins/': '', 'a-rather-long-file-name-for-the-column.properties': 'x', 'eula.txt': 'x' });
    await page.goto(`/server/${server.identifier}/files`);
    const date = row(page, 'eula.txt').locator('time');
    await expect(date).toBeVisible();
    // Not cut off: the text fits the cell it is in.
    expect(await date.evaluate((el) => (el.parentElement ? el.parentElement.scrollWidth <= el.parentElement.clientWidth : false))).toBe(true);
    const grid = page.getByRole('grid');
    const before = await grid.boundingBox();
    await row(page, 'eula.txt').getByRole('checkbox').check();
    await expect(page.getByRole('toolbar', { name: 'Selected items' })).toBeVisible();
    expect((await grid.boundingBox())?.y).toBe(before?.y);
    await page.screenshot({ path: '.tmp/h4-files-selected-1280.png', fullPage: true });
  });

  test('the server list shows names and lines up every card’s figures', async ({ page, cli, makeUser, makeServer, signIn }) => {
    const owner = makeUser({ admin: true });
    const other = makeUser();
    // Other tests add servers to the same panel: a word only these two names hold narrows the list.
    const tag = `cards${Date.now().toString(36)}`;
    makeServer(owner.email, `Lobby ${tag}`);
    // Figures of other widths ("Unlimited", "100 GiB") must still line up with the first card's.
    cli([
      'server:create',
      '--owner',
      other.email,
      '--name',
      `A much longer name than the other ${tag}`,
      '--memory',
      '0',
      '--disk',
      '102400',
      '--cpu',
      '0',
    ]);
    await signIn(page, owner);
    await page.goto(`/?all=1&q=${tag}`);
    const cards = page.getByRole('list', { name: 'Servers' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    // The admin's view names each server's owner.
    await expect(cards.nth(1).getByText(other.username)).toBeVisible();
    const lefts = await cards.evaluateAll((items) =>
      items.map((li) => [...li.querySelectorAll('dt')].map((dt) => Math.round(dt.getBoundingClientRect().left))),
    );
    expect(lefts[1]).toEqual(lefts[0]);
    await page.screenshot({ path: '.tmp/h4-server-list-1280.png', fullPage: true });
  });

  test('the header and breadcrumb name the server', async ({ page, makeUser, makeServer, signIn }) => {
    const owner = makeUser();
    const server = makeServer(owner.email, 'Named world');
    await signIn(page, owner);
    await page.goto(`/server/${server.identifier}/files`);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Named world');
    await expect(page.getByRole('heading', { level: 1, name: 'Named world' })).toBeVisible();
    await page.screenshot({ path: '.tmp/h4-server-header-1280.png' });
  });
});

test.describe('at 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('a long server name is whole in the heading and one line in the breadcrumb', async ({ page, makeUser, makeServer, signIn }) => {
    const owner = makeUser();
    const name = `Long server name that keeps going ${'and going '.repeat(12)}`.trim();
    const server = makeServer(owner.email, name);
    await signIn(page, owner);
    await page.goto(`/server/${server.identifier}/settings`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const current = page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]');
    await expect(current).toHaveText(name);
    const lineHeight = await current.evaluate((el) => parseFloat(el.ownerDocument.defaultView?.getComputedStyle(el).lineHeight ?? '0'));
    expect((await current.boundingBox())?.height).toBeLessThan(lineHeight * 1.5);
    await page.screenshot({ path: '.tmp/walk-long-name-360.png' });
  });
});
