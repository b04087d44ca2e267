import type { Browser, Page } from '@playwright/test';
import { test as base, expect, type E2eServer, type E2eUser } from './fixtures';
import { xsrfHeaders } from './support/hostile';
import { mailedLink } from './support/mail';

// Sharing a server: the owner's Users page, and what the subuser on the other side sees at once.

const nav = (page: Page) => page.getByRole('navigation', { name: /server/i });
const command = (page: Page) => page.getByRole('textbox', { name: 'Console command' });
const usersPage = (server: E2eServer) => `/server/${server.identifier}/users`;

/** A second browser (its own cookies) for the other side, with this test's client address. */
async function otherBrowser(browser: Browser, headers: Record<string, string> | undefined): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  return context.newPage();
}

interface Watching {
  server: E2eServer;
  sub: E2eUser;
  /** The subuser's page, in a browser of their own, on the server's console. */
  watcher: Page;
}

/**
 * `watchingSubuser(permissions)`: a subuser with `permissions` watching the server's console in a
 * browser of their own, and the owner signed in on `page` at the server's Users page. The
 * subuser's browser is closed after the test.
 */
const test = base.extend<{ watchingSubuser: (permissions: string) => Promise<Watching> }>({
  watchingSubuser: async ({ page, browser, extraHTTPHeaders, makeUser, makeServer, makeSubuser, signIn }, use) => {
    const opened: Page[] = [];
    await use(async (permissions) => {
      const owner = makeUser();
      const server = makeServer(owner.email);
      const sub = makeSubuser(server, permissions);
      const watcher = await otherBrowser(browser, extraHTTPHeaders);
      opened.push(watcher);
      await signIn(watcher, sub);
      await watcher.goto(`/server/${server.identifier}`);
      await expect(watcher.getByRole('status', { name: 'Server status' })).toHaveText('Offline');
      await signIn(page, owner);
      await page.goto(usersPage(server));
      return { server, sub, watcher };
    });
    for (const watcher of opened) await watcher.context().close();
  },
});

test('the owner invites a new address as Moderator; the invited user sets a password and sees only the allowed pages', async ({
  page,
  browser,
  extraHTTPHeaders,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(60_000);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(usersPage(server));
  await expect(page.getByText('No users yet')).toBeVisible();

  const email = `invited-${Date.now()}@e2e.test`;
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Moderator' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'control.console' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'file.read', exact: true })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('listitem', { name: email })).toContainText('6 permissions');

  const invited = await otherBrowser(browser, extraHTTPHeaders);
  const link = await mailedLink(email);
  const password = 'a new password for the invited user';
  // Mailed on the address the panel listens on (no APP_URL here), which the start-up box names too.
  expect(link.origin).toBe(new URL(page.url()).origin);
  await invited.goto(link.href);
  // An invite sets a first password: the page never speaks of a reset.
  await expect(invited.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await invited.getByLabel('New password', { exact: true }).fill(password);
  await invited.getByLabel('Confirm new password').fill(password);
  await invited.getByRole('button', { name: 'Set password' }).click();
  await expect(invited).toHaveURL(/\/auth\/login$/);
  await expect(invited.getByRole('status')).toHaveText('Your password is set. Sign in with it.');
  await signIn(invited, { email, password });

  await invited.goto(`/server/${server.identifier}`);
  for (const allowed of ['Console', 'Overview', 'Files']) await expect(nav(invited).getByRole('link', { name: allowed })).toBeVisible();
  for (const hidden of ['Users', 'Databases', 'Backups', 'Startup']) await expect(nav(invited).getByRole('link', { name: hidden })).toHaveCount(0);
  await invited.goto(usersPage(server));
  await expect(invited.getByRole('heading', { name: 'You do not have access to this' })).toBeVisible();
  await invited.context().close();
});

test("narrowing a subuser's rights takes the command input from their open console without a reload", async ({ page, watchingSubuser }) => {
  const { sub, watcher } = await watchingSubuser('control.console,control.start');
  await expect(command(watcher)).toHaveCount(1);

  await page.getByRole('button', { name: `Edit permissions of ${sub.email}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: 'control.console' }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await expect(command(watcher)).toHaveCount(0);
  await expect(watcher.getByText('Read-only: your account may watch this console but not send commands.')).toBeVisible();
  await expect(watcher.getByRole('status', { name: 'Server status' })).toHaveText('Offline');
});

test('a subuser with user.create cannot grant what they lack: the boxes are off and a forged request is refused', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  makeSubuser,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'user.create,user.read,control.console');
  await signIn(page, sub);
  await page.goto(usersPage(server));
  await expect(page.getByRole('listitem', { name: sub.email })).toContainText('You');
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await expect(dialog.getByRole('checkbox', { name: 'control.console' })).toBeEnabled();
  await expect(dialog.getByRole('checkbox', { name: 'file.read', exact: true })).toBeDisabled();
  await expect(dialog.getByText("You don't have this permission, so you can't grant it.").first()).toBeVisible();

  const forged = await page.request.post(`/api/client/servers/${server.uuid}/users`, {
    headers: await xsrfHeaders(page),
    data: { email: `forged-${Date.now()}@e2e.test`, permissions: ['control.console', 'file.read'] },
  });
  expect(forged.status()).toBe(403);
});

test('deleting a subuser ends their access at once: their open page says so and the API answers 404', async ({ page, watchingSubuser }) => {
  const { server, sub, watcher } = await watchingSubuser('control.console');

  await page.getByRole('button', { name: `Delete ${sub.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete user' });
  await expect(dialog).toContainText(`${sub.email} is removed from this server and loses access at once`);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('listitem', { name: sub.email })).toHaveCount(0);

  await expect(watcher.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  // Said once, by the page: no toast repeats it (the toast would come with the same refetch).
  await expect(watcher.locator('[data-sonner-toast]')).toHaveCount(0);
  await watcher.waitForTimeout(1_000);
  await expect(watcher.locator('[data-sonner-toast]')).toHaveCount(0);
  await watcher.screenshot({ path: '.tmp/walk-removed-subuser.png', fullPage: true });
  const next = await watcher.request.get(`/api/client/servers/${server.uuid}`, { headers: await xsrfHeaders(watcher) });
  expect(next.status()).toBe(404);
});
