import { test, expect } from './fixtures';
import { xsrfHeaders } from './support/hostile';

/*
 * Issue 22 #7: a failed reinstall's toast sent the owner to a console that showed nothing. The
 * install here fails for a reason the owner made: a folder where the demo egg's script copies its
 * program (`cp` cannot overwrite a directory), so its output says why.
 */

test("an admin owner whose reinstall fails is sent to the console, which shows the install's output", async ({
  page,
  makeUser,
  makeServer,
  filesOf,
  signIn,
}) => {
  test.setTimeout(60_000);
  // Install output is the admins' (the egg's script sees variables hidden from users).
  const owner = makeUser({ admin: true });
  const server = makeServer(owner.email, 'Failing reinstall');
  await signIn(page, owner);
  const removed = await page.request.post(`/api/client/servers/${server.uuid}/files/delete`, {
    headers: { ...(await xsrfHeaders(page)), Accept: 'application/json' },
    data: { root: '/', files: ['demo-game.mjs'] },
  });
  expect(removed.status()).toBe(204);
  await filesOf(server, page).seed({ 'demo-game.mjs/': '', 'demo-game.mjs/demo-game.mjs/': '' });

  await page.goto(`/server/${server.identifier}/settings`);
  await page.getByRole('button', { name: 'Reinstall server' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Its output shows in the console as it runs, and stays there if it fails.');
  await dialog.getByRole('button', { name: 'Reinstall', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText('Reinstall failed: the install script did not finish. Its output is at the end of the console.')).toBeVisible({
    timeout: 20_000,
  });

  await page.getByRole('link', { name: 'Console' }).click();
  const terminal = page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
  await expect(terminal).toContainText('Install output: the last install');
  await expect(terminal).toContainText('install │ Installing the demo game into /mnt/server');
  await expect(terminal).toContainText('cannot overwrite directory');
  await expect(terminal).toContainText('End of the install output.');
});

test('a subuser who may reinstall is told to ask the owner, and the console shows them no install output', async ({
  page,
  makeUser,
  makeServer,
  makeSubuser,
  filesOf,
  signIn,
}) => {
  test.setTimeout(60_000);
  const owner = makeUser();
  const server = makeServer(owner.email, 'Failing for a subuser');
  const helper = makeSubuser(server, 'websocket.connect,control.console,settings.reinstall,file.read,file.delete,file.create');
  await signIn(page, helper);
  const removed = await page.request.post(`/api/client/servers/${server.uuid}/files/delete`, {
    headers: { ...(await xsrfHeaders(page)), Accept: 'application/json' },
    data: { root: '/', files: ['demo-game.mjs'] },
  });
  expect(removed.status()).toBe(204);
  await filesOf(server, page).seed({ 'demo-game.mjs/': '', 'demo-game.mjs/demo-game.mjs/': '' });

  await page.goto(`/server/${server.identifier}/settings`);
  await page.getByRole('button', { name: 'Reinstall server' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Its output is not shown to you.');
  await dialog.getByRole('button', { name: 'Reinstall', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(
    page.getByText('Reinstall failed: the install script did not finish. Its output is not shown to you: ask the server’s owner.'),
  ).toBeVisible({
    timeout: 20_000,
  });

  await page.getByRole('link', { name: 'Console' }).click();
  const region = page.getByRole('region', { name: 'Console' });
  await expect(page.getByRole('status', { name: 'Server status' })).toHaveText('Offline');
  await expect(region.locator('.xterm-rows')).not.toContainText('Install output');
  await expect(region.locator('.xterm-rows')).not.toContainText('cannot overwrite directory');
});
