import { test, expect } from './fixtures';

/*
 * The server's Settings page: a rename shows in the page header and the server list at once; a
 * reinstall stops the server and its install script lays the demo game out again.
 */

test('rename the server and see the new name in the header and the list', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email, 'Before rename');
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/settings`);

  const name = page.getByLabel('Server name');
  await expect(name).toHaveValue('Before rename');
  await expect(page.getByRole('button', { name: `Copy server UUID: ${server.uuid}` })).toBeVisible();
  await name.fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The name field is required.')).toBeVisible();

  await name.fill('After rename');
  await page.getByRole('textbox', { name: 'Description' }).fill('A world for building');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('After rename');

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'After rename' })).toBeVisible();
  await expect(page.getByText('Before rename')).toHaveCount(0);

  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByText(/Before rename/).first()).toBeVisible();
});

test('reinstall a running server from the Settings page: it stops, and starts again from the program its install laid out', async ({
  page,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(60_000);
  const owner = makeUser();
  const server = makeServer(owner.email, 'Reinstall me');
  await signIn(page, owner);
  const terminal = page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
  const power = page.getByRole('group', { name: 'Power' });
  const serverStatus = page.getByRole('status', { name: 'Server status' });

  await page.goto(`/server/${server.identifier}`);
  await power.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(serverStatus).toHaveText('Running', { timeout: 20_000 });

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Reinstall server' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Other files stay as they are.');
  await dialog.getByRole('button', { name: 'Reinstall', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText('Reinstall finished')).toBeVisible();

  await page.getByRole('link', { name: 'Console' }).click();
  await expect(serverStatus).toHaveText('Offline', { timeout: 20_000 });
  await power.getByRole('button', { name: 'Start', exact: true }).click();
  // The history still holds the first run's "Done (" line: Running says the new program came up.
  await expect(serverStatus).toHaveText('Running', { timeout: 20_000 });
  await expect(terminal).toContainText('Done (');
  await power.getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus).toHaveText('Offline', { timeout: 20_000 });
});

test("an admin watching the console sees the reinstall's output; the status returns to Offline", async ({
  page,
  context,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(60_000);
  const admin = makeUser({ admin: true });
  const server = makeServer(admin.email, 'Watched reinstall');
  await signIn(page, admin);
  const watcher = await context.newPage();
  await watcher.goto(`/server/${server.identifier}`);
  const serverStatus = watcher.getByRole('status', { name: 'Server status' });
  await expect(serverStatus).toHaveText('Offline');

  await page.goto(`/server/${server.identifier}/settings`);
  await page.getByRole('button', { name: 'Reinstall server' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reinstall', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeHidden({ timeout: 20_000 });

  const terminal = watcher.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
  await expect(terminal).toContainText('Installed demo-game.mjs');
  await expect(serverStatus).toHaveText('Offline');
});
