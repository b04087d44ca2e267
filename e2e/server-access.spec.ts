import { test, expect } from './fixtures';

// What a user can reach on the server pages: shared servers only, allowed pages only, and a
// page that says what happened otherwise.

test('a subuser sees the server shared with them and not the owner’s other servers', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const shared = makeServer(owner.email, 'Shared world');
  const other = makeServer(owner.email, 'Private world');
  const sub = makeSubuser(shared, 'file.read');
  await signIn(page, sub);
  await page.goto('/');
  await expect(page.getByRole('link', { name: new RegExp(shared.name) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(other.name) })).toHaveCount(0);
});

test('a subuser with only file.read sees Console, Overview and Files but not Activity', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  makeSubuser,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'file.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  const nav = page.getByRole('navigation', { name: 'Server' });
  await expect(nav.getByRole('link', { name: 'Console' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Files' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Activity' })).toHaveCount(0);
});

test('opening a page the subuser may not use shows the access-denied page', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'file.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByRole('heading', { name: 'You do not have access to this' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: server.name })).toBeVisible();
});

test('a limited subuser is told which permission each hidden page and control needs', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'file.read,file.read-content,websocket.connect,control.start');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The console: no command input and two of three power buttons, each said once.
  await expect(page.getByRole('note').filter({ hasText: 'Needs the control.console permission' })).toContainText(
    'Send commands to the server console.',
  );
  await expect(page.getByRole('group', { name: 'Power' })).toContainText('Needs control.restart and control.stop permissions');
  await page.screenshot({ path: '/work/shots/hints-console.png', fullPage: true });

  // The nav: a disclosure lists the pages they cannot open.
  const more = page.getByRole('button', { name: /^\d+ more pages$/ });
  await more.click();
  const hidden = page.getByRole('region', { name: 'Pages you cannot open' });
  await expect(hidden.getByRole('listitem').filter({ hasText: 'Activity' })).toContainText('Needs the activity.read permission');
  await page.screenshot({ path: '/work/shots/hints-nav.png' });

  // The files page: one line for every file action they lack.
  await page.getByRole('link', { name: 'Files' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'file.create' })).toContainText(
    'Needs file.create, file.update, file.archive and file.delete permissions',
  );
  await expect(page.getByRole('region', { name: 'Pages you cannot open' })).toBeHidden();
  await page.screenshot({ path: '/work/shots/hints-files.png' });

  // The forbidden page names the permission.
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByRole('alert')).toContainText('Needs the activity.read permission');
  await page.screenshot({ path: '/work/shots/hints-forbidden.png' });
});

test('another user’s server shows not found', async ({ page, makeUser, makeServer, signIn }) => {
  const stranger = makeUser();
  const owner = makeUser();
  const server = makeServer(owner.email, 'Not yours');
  await signIn(page, stranger);
  await page.goto(`/server/${server.identifier}`);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(page.getByText('Not yours')).toHaveCount(0);
  // The app header stays, so the way back is there.
  await expect(page.getByRole('link', { name: 'Back to your servers' })).toBeVisible();
});

test('a suspended server shows the suspension banner', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  cli(['server:status', '--server', server.identifier, '--status', 'suspended']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await expect(page.getByText('This server is suspended; most actions are unavailable.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Server state' }).getByText('Suspended')).toBeVisible();
});

test('the owner’s overview shows SFTP details to copy', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/overview`);
  const sftp = page.getByRole('region', { name: 'SFTP' });
  await expect(sftp.getByText(`${owner.username}.${server.identifier}`)).toBeVisible();
  await expect(sftp.getByRole('button', { name: /^Copy username/ })).toBeVisible();
  await expect(sftp.getByText(/^sftp:\/\//)).toBeVisible();
});
