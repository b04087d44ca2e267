import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

// The admin area: root admins reach it from the header; nobody else gets it, nor its code.

/** The admin area's own chunks (Vite names a chunk after its module: admin-layout, admin-users-page…). */
const ADMIN_CHUNK = /\/assets\/admin-[^/]*\.js$/;

function scriptsLoaded(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.push(request.url());
  });
  return urls;
}

test('a root admin opens Admin from the header, sees the overview, and finds and opens a user by keyboard', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  const other = makeUser();
  await signIn(page, admin);
  await page.goto('/');
  await page.getByRole('link', { name: 'Admin', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  const nodes = page.getByRole('list', { name: 'Nodes' });
  await expect(nodes.getByRole('listitem').first()).toContainText('Reachable');
  await expect(page.getByText(/^\d+\.\d+\.\d+/).first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  // By keyboard, as every admin list: "/" focuses the search, Tab goes on to the first row's link.
  const list = page.getByRole('list', { name: 'Users' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search by e-mail' })).toBeFocused();
  await page.keyboard.type(other.email);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Clear the search' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Search in' })).toBeFocused();
  await page.keyboard.press('Tab');
  const link = list.getByRole('link', { name: other.username });
  await expect(link).toBeFocused();
  // The ring is drawn round the row (the link's ::after covers it), for keyboard focus.
  const ring = await link.evaluate((el) =>
    el.matches(':focus-visible') ? el.ownerDocument.defaultView?.getComputedStyle(el, '::after').boxShadow : 'none',
  );
  expect(ring).toMatch(/rgb/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: other.username })).toBeVisible();
  await expect(page.getByText(other.email)).toBeVisible();
});

test('a root admin creates a user without a password, who is sent an invitation', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create user' });
  const name = `made-${Date.now().toString(36)}`;
  await dialog.getByLabel('E-mail').fill(`${name}@example.test`);
  await dialog.getByLabel('Username').fill(name);
  await dialog.getByLabel('First name').fill('Made');
  await dialog.getByLabel('Last name').fill('Here');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(page.getByText(/sent an invitation e-mail/)).toBeVisible();
});

test('a regular user has no Admin link, gets not found at /admin/users, and loads no admin code', async ({ page, makeUser, signIn }) => {
  const user = makeUser();
  const scripts = scriptsLoaded(page);
  const adminApi: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/application')) adminApi.push(request.url());
  });
  await signIn(page, user);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);

  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => ADMIN_CHUNK.test(url))).toEqual([]);
  expect(adminApi).toEqual([]);
});

test('the admin chunk is fetched once an admin opens /admin (what the test above looks for exists)', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  const scripts = scriptsLoaded(page);
  await signIn(page, admin);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  expect(scripts.some((url) => ADMIN_CHUNK.test(url))).toBe(true);
});
