import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { loadSecretBox } from '../server/lib/secret-box';
import { managedPassword } from '../server/services/managed-mariadb-admin';
import { e2eDataDir } from './support/cli';
import { test, expect } from './fixtures';

// The admin area's database hosts and application keys, against the real panel. Its panel-wide
// settings are tested in admin-settings.panel-wide.spec.ts.

const MARIADB_PORT = Number(process.env.PANEL_MARIADB_PORT ?? Number(process.env.E2E_PORT ?? 4173) + 10_000);

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
