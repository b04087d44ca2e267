import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { row } from './files-support';

/*
 * The light theme chosen on the account page (issue 26 §2): it applies at once, outlives a reload
 * and follows the account into another browser, and the server list, console, file manager and
 * editor are light. Screenshots go to E2E_SHOTS_DIR when set, else to the test's output folder.
 */

/** The computed background's lightness, 0 (black) to 255 (white), of the first element `selector` finds, through a canvas (the palette is oklch). */
async function lightness(page: Page, selector: string): Promise<number> {
  // A string, since e2e code is type-checked without the DOM library.
  return page.evaluate<number>(`(() => {
    const context = document.createElement('canvas').getContext('2d');
    context.fillStyle = getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return Math.round(0.2126 * r + 0.7152 * g + 0.0722 * b);
  })()`);
}

const html = (page: Page) => page.locator('html');

async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: dir ? `${dir}/${name}.png` : test.info().outputPath(`${name}.png`), fullPage: true });
}

test('Light on the account page turns the page light at once, after a reload, and in another browser', async ({
  page,
  browser,
  makeUser,
  signIn,
}) => {
  const user = makeUser();
  await signIn(page, user);
  await page.goto('/account/appearance');
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  expect(await lightness(page, 'html')).toBeLessThan(40);

  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  expect(await lightness(page, 'html')).toBeGreaterThan(230);

  await page.reload();
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  await shot(page, 'account-appearance-1280');

  // Stored for the account: a fresh browser (nothing in its storage) turns light on sign-in.
  const other = await browser.newPage({ colorScheme: 'dark' });
  await signIn(other, user);
  await other.goto('/');
  await expect(html(other)).toHaveAttribute('data-theme', 'light');
  await other.close();
});

test('System follows the browser live, and Dark stays dark in a light system', async ({ page, makeUser, signIn }) => {
  await signIn(page, makeUser());
  await page.goto('/account/appearance');
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  expect(await lightness(page, 'html')).toBeLessThan(40);
});

test('the server list, console, file manager and editor are light in the light theme', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const server = makeServer(owner.email, 'Daylight world');
  makeServer(owner.email, 'A second server, to see the list');
  await signIn(page, owner);
  await filesOf(server, page).seed({
    'server.properties': 'motd=A Minecraft Server\nmax-players=20\n',
    'eula.txt': 'eula=true',
    'plugins/a.yml': 'a: 1',
  });
  await page.goto('/account/appearance');
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(html(page)).toHaveAttribute('data-theme', 'light');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const list = page.getByRole('list', { name: 'Servers' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    expect(await lightness(page, 'html')).toBeGreaterThan(230);
    expect(await lightness(page, 'ul[aria-label="Servers"] > li')).toBeGreaterThan(230);
    await shot(page, `server-list-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`/server/${server.identifier}`);
  const consoleRegion = page.getByRole('region', { name: 'Console' });
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(consoleRegion.locator('.xterm-rows')).toContainText('Done (', { timeout: 20_000 });
  expect(await lightness(page, '.xterm .xterm-scrollable-element')).toBeGreaterThan(230);
  await shot(page, 'console-1280');
  // Dark chosen in another tab: the terminal switches live, its output kept; then Light again.
  const tab = await page.context().newPage();
  await tab.goto('/account/appearance');
  await tab.getByRole('radio', { name: 'Dark' }).check();
  await expect.poll(() => lightness(page, '.xterm .xterm-scrollable-element')).toBeLessThan(40);
  await expect(consoleRegion.locator('.xterm-rows')).toContainText('Done (');
  await tab.getByRole('radio', { name: 'Light' }).check();
  await expect.poll(() => lightness(page, '.xterm .xterm-scrollable-element')).toBeGreaterThan(230);
  await tab.close();
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('status', { name: 'Server status' })).toHaveText('Offline', { timeout: 20_000 });

  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'server.properties')).toBeVisible();
  expect(await lightness(page, 'html')).toBeGreaterThan(230);
  await shot(page, 'file-manager-1280');

  await page.goto(`/server/${server.identifier}/file/server.properties`);
  await expect(page.getByRole('textbox', { name: 'Contents of server.properties' })).toContainText('max-players');
  expect(await lightness(page, '.cm-editor')).toBeGreaterThan(230);
  await shot(page, 'file-editor-1280');
});
