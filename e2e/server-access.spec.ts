import { test, expect } from './fixtures';

// What a user can reach on the server pages: shared servers only, allowed pages only, and a
// page that says what happened otherwise.

test('a subuser sees the server shared with them and not the owner’s other servers', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const shared = makeServer(owner.email, 'Shared world');
  const other = makeServer(owner.email, 'Private world');
  const sub = makeUser();
  cli(['subuser:add', '--server', shared.identifier, '--email', sub.email, '--permissions', 'file.read']);
  await signIn(page, sub);
  await page.goto('/');
  await expect(page.getByRole('link', { name: new RegExp(shared.name) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(other.name) })).toHaveCount(0);
});

test('a subuser with only file.read sees Console, Overview and Files but not Activity', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeUser();
  cli(['subuser:add', '--server', server.identifier, '--email', sub.email, '--permissions', 'file.read']);
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  const nav = page.getByRole('navigation', { name: 'Server' });
  await expect(nav.getByRole('link', { name: 'Console' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Files' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Activity' })).toHaveCount(0);
});

test('opening a page the subuser may not use shows the access-denied page', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeUser();
  cli(['subuser:add', '--server', server.identifier, '--email', sub.email, '--permissions', 'file.read']);
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByRole('heading', { name: 'You do not have access to this' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: server.name })).toBeVisible();
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
