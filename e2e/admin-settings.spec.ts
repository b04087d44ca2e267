import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mysql from 'mysql2/promise';
import type { Page } from '@playwright/test';
import { loadSecretBox } from '../server/lib/secret-box';
import { managedPassword } from '../server/services/managed-mariadb-admin';
import { e2eDataDir } from './support/cli';
import { xsrfHeaders } from './support/hostile';
import { test, expect } from './fixtures';

// The admin area's database hosts, application keys and settings, against the real panel. The
// settings are the panel's, shared with every other spec: each test puts them back as it found them.

const MARIADB_PORT = Number(process.env.PANEL_MARIADB_PORT ?? Number(process.env.E2E_PORT ?? 4173) + 10_000);

/** Puts the panel's name and 2FA policy back, whatever the test did (an admin's session on `page`). */
async function restoreSettings(page: Page, name: string): Promise<void> {
  const res = await page.request.patch('/api/application/settings', {
    data: { panel_name: name, require_two_factor: 'off' },
    headers: await xsrfHeaders(page),
  });
  expect(res.status()).toBe(200);
}

async function panelName(page: Page): Promise<string> {
  const res = await page.request.get('/api/application/settings', { headers: { Accept: 'application/json' } });
  return ((await res.json()) as { attributes: { panel_name: string } }).attributes.panel_name;
}

test('an admin adds a database host after a refused connection test, and deletes it', async ({ page, makeUser, signIn }) => {
  // An account of its own on the panel's managed MariaDB, with what a host's admin needs.
  const rootPassword = managedPassword(path.join(e2eDataDir(), 'mariadb'), loadSecretBox(e2eDataDir()));
  const root = await mysql.createConnection({ host: '127.0.0.1', port: MARIADB_PORT, user: 'root', password: rootPassword });
  const user = `e2e_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  await root.query('CREATE USER ?@? IDENTIFIED BY ?', [user, '127.0.0.1', password]);
  await root.query('GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [user, '127.0.0.1']);
  try {
    const admin = makeUser({ admin: true });
    await signIn(page, admin);
    await page.goto('/admin/database-hosts');
    await page.getByRole('button', { name: 'Add database host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add database host' });
    await dialog.getByLabel('Name', { exact: true }).fill(user);
    await dialog.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await dialog.getByLabel('Port', { exact: true }).fill(String(MARIADB_PORT));
    await dialog.getByLabel('Username', { exact: true }).fill(user);
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await dialog.getByLabel('Max databases', { exact: true }).fill('5');
    await dialog.getByRole('button', { name: 'Add host' }).click();
    await expect(dialog.getByText(`127.0.0.1:${MARIADB_PORT} refused the username or password (${user}).`)).toBeVisible();

    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Add host' }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('list', { name: 'Database hosts' }).getByRole('listitem').filter({ hasText: user });
    await expect(row).toContainText('0 of 5 databases');
    await row.getByRole('button', { name: `Test connection to ${user}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${user}: connected` })).toBeVisible();

    await row.getByRole('button', { name: `Delete ${user}` }).click();
    await page.getByRole('dialog', { name: 'Delete database host' }).getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0);
  } finally {
    await root.query('DROP USER IF EXISTS ?@?', [user, '127.0.0.1']);
    await root.end();
  }
});

test('an admin creates a read-only servers key, sees its secret once, uses it, revokes it', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin/api-keys');
  await page.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New application key' });
  await dialog.getByLabel('Description').fill('billing e2e');
  await dialog.getByLabel('Servers').selectOption('r');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('application-key-secret').textContent()) ?? '';
  expect(secret).toMatch(/^ptla_/);
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Application keys' })).toContainText('Servers: read');

  const bearer = { Authorization: `Bearer ${secret}`, Accept: 'application/json' };
  const call = (method: string) =>
    page.evaluate(
      async ([m, headers]) =>
        (await fetch('/api/application/servers', { method: m, headers, credentials: 'omit', ...(m === 'POST' ? { body: '{}' } : {}) })).status,
      [method, bearer] as const,
    );
  expect(await call('GET')).toBe(200);
  expect(await call('POST')).toBe(403);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('application-key-secret')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.getByRole('button', { name: 'Revoke billing e2e' }).click();
  await page.getByRole('dialog', { name: 'Revoke application key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('list', { name: 'Application keys' })).toHaveCount(0);
  expect(await call('GET')).toBe(401);
});

test('an admin renames the panel, which the header and the title show, and names it back', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin/settings');
  const before = await panelName(page);
  const name = `Panel ${randomBytes(3).toString('hex')}`;
  try {
    await page.getByRole('textbox', { name: 'Panel name' }).fill(name);
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('banner').getByText(name)).toBeVisible();
    await expect(page).toHaveTitle(`Settings · Admin · ${name}`);
    await page.getByRole('textbox', { name: 'Panel name' }).fill(before);
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('banner').getByText(before, { exact: true })).toBeVisible();
  } finally {
    await restoreSettings(page, before);
  }
});

test('with two-factor required of everyone, a new user lands on its setup until the admin turns it off', async ({
  page,
  browser,
  makeUser,
  signIn,
}) => {
  const admin = makeUser({ admin: true, totp: true });
  await signIn(page, admin);
  await page.goto('/admin/settings');
  const before = await panelName(page);
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    await page.getByRole('radio', { name: /^Everyone/ }).check();
    await page.getByRole('button', { name: 'Save requirement' }).click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();

    const userPage = await other.newPage();
    await signIn(userPage, makeUser());
    await userPage.goto('/');
    await expect(userPage).toHaveURL(/\/account\/two-factor\?required=1$/);
    await expect(userPage.getByRole('alert')).toContainText('requires two-factor authentication');

    await page.getByRole('radio', { name: /^Not required/ }).check();
    await page.getByRole('button', { name: 'Save requirement' }).click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    await userPage.goto('/');
    await expect(userPage).toHaveURL(/\/$/);
  } finally {
    await restoreSettings(page, before);
    await other.close();
  }
});
