import { test, expect } from './fixtures';

/*
 * The server's Settings page: a rename shows in the page header and the server list at once, and
 * a reload keeps it.
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
