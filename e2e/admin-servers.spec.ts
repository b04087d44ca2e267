import type { Page } from '@playwright/test';
import { test, expect, type E2eUser } from './fixtures';
import { xsrfHeaders } from './support/hostile';

// The admin area's servers: an admin creates one for a user, suspends it (the user sees it
// suspended), lifts that, changes its memory and deletes it, all from the browser; creates one
// with an extra port; changes a server's egg.

// One at a time: the first test takes the panel's node's first free allocation, which must not
// be one the extra-port test made for itself.
test.describe.configure({ mode: 'serial' });

/** On the create form: the new server's name, and its owner found by e-mail. */
async function nameAndOwner(page: Page, name: string, owner: E2eUser) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('searchbox', { name: 'Find the owner by e-mail' }).fill(owner.email);
  const ownerSelect = page.getByLabel('Owner', { exact: true });
  await expect(ownerSelect.locator('option', { hasText: owner.email })).toHaveCount(1);
  await ownerSelect.selectOption({ label: `${owner.email} (${owner.username})` });
}

test('an admin creates, suspends, unsuspends, resizes and deletes a server for a user', async ({ page, browser, makeUser, signIn }) => {
  test.setTimeout(120_000);
  const admin = makeUser({ admin: true });
  const owner = makeUser();
  await signIn(page, admin);
  await page.goto('/admin/servers');
  await page.getByRole('link', { name: 'Create server' }).click();
  const name = `made-${Date.now().toString(36)}`;
  await nameAndOwner(page, name, owner);
  const nodeSelect = page.getByLabel('Node', { exact: true });
  await expect(nodeSelect.locator('option')).not.toHaveCount(1);
  // The panel's own node: other specs add nodes that are not running.
  await nodeSelect.selectOption({ label: 'local' });
  const eggSelect = page.getByLabel('Egg', { exact: true });
  await expect(eggSelect.locator('option', { hasText: 'Demo game' })).toHaveCount(1);
  await eggSelect.selectOption({ label: (await eggSelect.locator('option', { hasText: 'Demo game' }).textContent()) ?? '' });
  await expect(page.getByLabel('Image')).not.toHaveValue('');
  await page.getByRole('button', { name: 'Create server' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 20_000 });

  // Suspend: the owner's client area says so.
  await page.getByRole('button', { name: 'Suspend' }).click();
  await page.getByRole('dialog', { name: 'Suspend server' }).getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByRole('heading', { level: 2, name }).getByText('Suspended')).toBeVisible();
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await ownerPage.goto('/');
  await expect(ownerPage.getByText(name)).toBeVisible();
  await expect(ownerPage.getByText(/suspended/i).first()).toBeVisible();
  await ownerContext.close();

  await page.getByRole('button', { name: 'Unsuspend' }).click();
  await page.getByRole('dialog', { name: 'Unsuspend server' }).getByRole('button', { name: 'Unsuspend' }).click();
  await expect(page.getByRole('button', { name: 'Suspend' })).toBeVisible();

  // Memory.
  await page.getByRole('button', { name: 'Edit limits' }).click();
  const build = page.getByRole('dialog', { name: 'Edit limits and ports' });
  await build.getByLabel('Memory (MiB)').fill('768');
  await build.getByRole('button', { name: 'Save' }).click();
  await expect(build).toBeHidden();
  await expect(page.getByText('768 MiB').first()).toBeVisible();

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`admin-server-${width}.png`), fullPage: true });
  }
  await page.goto('/admin/servers');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('list', { name: 'Servers' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`admin-servers-${width}.png`), fullPage: true });
  }
  await page.getByRole('list', { name: 'Servers' }).getByRole('link', { name }).click();

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete server' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/admin\/servers$/);
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});

test('an admin creates a server with an extra port, and its owner’s Network page lists both ports', async ({ page, browser, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  const owner = makeUser();
  await signIn(page, admin);
  await page.goto('/admin/servers/new');
  // Two free allocations of the panel's node at the top of its range, which placement reaches last.
  const headers = { ...(await xsrfHeaders(page)), accept: 'application/json' };
  const nodes = (await (await page.request.get('/api/application/nodes', { headers })).json()) as {
    data: { attributes: { id: number; name: string } }[];
  };
  const local = nodes.data.find((n) => n.attributes.name === 'local')?.attributes.id;
  const last = Number((process.env.PANEL_ALLOCATION_PORTS ?? '').split('-')[1]);
  const [primary, extra] = [`127.0.0.1:${last - 1}`, `127.0.0.1:${last}`];
  const made = await page.request.post(`/api/application/nodes/${local}/allocations`, {
    headers,
    data: { ip: '127.0.0.1', ports: [`${last - 1}-${last}`] },
  });
  expect(made.status()).toBe(204);

  const name = `ports-${Date.now().toString(36)}`;
  await nameAndOwner(page, name, owner);
  await page.getByLabel('Node', { exact: true }).selectOption({ label: 'local' });
  const primarySelect = page.getByLabel('Primary port', { exact: true });
  await expect(primarySelect.locator('option', { hasText: primary })).toHaveCount(1);
  await primarySelect.selectOption({ label: primary });
  await page.getByLabel('Extra ports', { exact: true }).selectOption({ label: extra });
  await page.getByLabel('Egg', { exact: true }).selectOption({ label: 'Demo game' });
  await page.getByText('Skip the egg’s install script').click();
  await page.getByText('Start it once installed').click();
  await page.getByRole('button', { name: 'Create server' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`${primary}, ${extra}`)).toBeVisible();
  const client = (await page.getByRole('link', { name: 'Open in the client area →' }).getAttribute('href')) ?? '';

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await ownerPage.goto(`${client}/network`);
  const ports = ownerPage.getByRole('list', { name: 'Allocations' });
  await expect(ports.getByRole('listitem', { name: primary })).toBeVisible({ timeout: 20_000 });
  await expect(ports.getByRole('listitem', { name: extra })).toBeVisible();
  await ownerContext.close();
});

test('an admin changes a server’s egg in the startup dialog, and the new egg’s variable shows', async ({ page, makeUser, makeServer, signIn }) => {
  const admin = makeUser({ admin: true });
  const server = makeServer(makeUser().email);
  await signIn(page, admin);
  await page.goto(`/admin/servers/${server.id}`);
  await page.getByRole('button', { name: 'Edit startup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit startup' });
  await expect(dialog.getByLabel(/Max players/)).toBeVisible();
  await dialog.getByLabel('Egg', { exact: true }).selectOption({ label: 'Paper' });
  await expect(dialog.getByLabel(/Server Jar File/)).toHaveValue('server.jar');
  await expect(dialog.getByLabel(/Max players/)).toHaveCount(0);
  await expect(dialog.getByLabel('Image')).toHaveValue('ghcr.io/pterodactyl/yolks:java_21');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Paper', { exact: true })).toBeVisible();
});
