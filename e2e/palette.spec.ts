import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

// The command palette (Ctrl/⌘+K) and the "?" shortcut sheet, on the real panel.

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });

/** Opens the palette with the keyboard and types `text` into it. */
async function ask(page: Page, text: string) {
  await page.keyboard.press('ControlOrMeta+k');
  const box = palette(page).getByRole('combobox', { name: 'Search or jump to' });
  await expect(box).toBeFocused();
  await box.fill(text);
  return box;
}

test('⌘K finds a server by part of its name, Enter opens it; "restart" then restarts it', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email, `Lighthouse ${Math.random().toString(36).slice(2, 8)}`);
  await signIn(page, owner);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Servers' })).toBeVisible();

  await ask(page, server.name.slice(3));
  await expect(palette(page).getByRole('option', { name: new RegExp(server.name) })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');

  await ask(page, 'restart');
  await expect(palette(page).getByRole('option')).toHaveText([/Restart server/]);
  await page.keyboard.press('Enter');
  await expect(palette(page)).toHaveCount(0);
  await expect(serverStatus(page)).toHaveText(/Starting|Running/, { timeout: 15_000 });

  // No process outlives the test: the palette stops it too, once it runs.
  await expect(serverStatus(page)).toHaveText('Running', { timeout: 15_000 });
  await ask(page, 'stop server');
  await expect(palette(page).getByRole('option')).toHaveText([/Stop server/]);
  await page.keyboard.press('Enter');
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 15_000 });
});

test('a subuser without control.restart is not offered "restart"', async ({ page, makeUser, makeServer, makeSubuser, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'control.start,websocket.connect');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');

  await ask(page, 'start');
  await expect(palette(page).getByRole('option')).toHaveText([/Start server/]);
  await palette(page).getByRole('combobox').fill('restart');
  await expect(palette(page).getByText('Nothing matches “restart”')).toBeVisible();
  await expect(palette(page).getByRole('option')).toHaveCount(0);
});

test('"?" lists the console’s shortcuts and the palette’s', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const consoleKeys = sheet.getByRole('region', { name: 'Console' });
  await expect(consoleKeys).toContainText('Search the output');
  await expect(consoleKeys).toContainText('Earlier / later commands sent to this server');
  await expect(sheet.getByRole('region', { name: 'Everywhere' })).toContainText('Search or jump to a server, a page or an action');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
});
