import { test, expect } from './fixtures';

// The admin area's servers: an admin creates one for a user, suspends it (the user sees it
// suspended), lifts that, changes its memory and deletes it, all from the browser.

test('an admin creates, suspends, unsuspends, resizes and deletes a server for a user', async ({ page, browser, makeUser, signIn }) => {
  test.setTimeout(120_000);
  const admin = makeUser({ admin: true });
  const owner = makeUser();
  await signIn(page, admin);
  await page.goto('/admin/servers');
  await page.getByRole('link', { name: 'Create server' }).click();
  const name = `made-${Date.now().toString(36)}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('searchbox', { name: 'Find the owner by e-mail' }).fill(owner.email);
  const ownerSelect = page.getByLabel('Owner', { exact: true });
  await expect(ownerSelect.locator('option', { hasText: owner.email })).toHaveCount(1);
  await ownerSelect.selectOption({ label: `${owner.email} (${owner.username})` });
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
