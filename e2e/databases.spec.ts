import mysql from 'mysql2/promise';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';

// The Databases page against the panel's real MariaDB: what the page shows is what connects. An
// owner creates a database, copies its password and uses it; rotates it (the old one stops
// working); deletes it by typing its name. A subuser with database.read alone sees no password and
// no actions.

const rows = (page: Page) => page.getByRole('list', { name: 'Databases' }).getByRole('listitem');

/** The value a row's copy button copies (its label is `Copy <what>: <value>`). */
async function copied(row: Locator, what: string): Promise<string> {
  const label = (await row.getByRole('button', { name: new RegExp(`^Copy ${what}: `) }).getAttribute('aria-label')) ?? '';
  return label.slice(`Copy ${what}: `.length);
}

async function connect(endpoint: string, user: string, password: string, database: string) {
  const [host, port] = endpoint.split(':');
  return mysql.createConnection({ host, port: Number(port), user, password, database, connectTimeout: 5000 });
}

async function refused(endpoint: string, user: string, password: string, database: string): Promise<string> {
  const connection = await connect(endpoint, user, password, database).catch((error: unknown) => error as { code?: string });
  if ('end' in connection) {
    await connection.end();
    return 'connected';
  }
  return connection.code ?? 'error';
}

test('create, copy the password and use it, rotate, delete by typing the name', async ({ page, context, makeUser, makeServer, signIn }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Databases' }).click();
  await expect(page.getByText('No databases yet')).toBeVisible();
  await expect(page.getByText('0 of 2 used')).toBeVisible();

  await page.getByRole('button', { name: 'New database' }).click();
  const dialog = page.getByRole('dialog', { name: 'New database' });
  await dialog.getByRole('textbox', { name: 'Database name' }).fill('web map');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('alert')).toContainText('1 to 48 letters');
  await dialog.getByRole('textbox', { name: 'Database name' }).fill('webmap');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByText('1 of 2 used')).toBeVisible();

  const row = rows(page).first();
  const name = await copied(row, 'name');
  expect(name).toBe(`s${server.id}_webmap`);
  const endpoint = await copied(row, 'endpoint');
  const username = await copied(row, 'username');
  expect(await copied(row, 'connections from')).toBe('%');

  // Hidden until revealed; then copied to the clipboard and into the connection strings.
  await expect(row.getByRole('button', { name: /^Copy password/ })).toHaveCount(0);
  await row.getByRole('button', { name: 'Show password' }).click();
  await row.getByRole('button', { name: /^Copy password/ }).click();
  await expect(row.getByRole('button', { name: /^Copy password/ })).toHaveText('Copied');
  const password = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(password.length).toBeGreaterThanOrEqual(16);
  await expect(row.getByText(password, { exact: true })).toBeVisible();
  expect(await copied(row, 'connection url')).toBe(`mysql://${username}:${encodeURIComponent(password)}@${endpoint}/${name}`);
  expect(await copied(row, 'jdbc connection string')).toBe(`jdbc:mysql://${username}:${encodeURIComponent(password)}@${endpoint}/${name}`);

  // The database is real and the shown credentials open it.
  const connection = await connect(endpoint, username, password, name);
  await connection.query('CREATE TABLE markers (id INT PRIMARY KEY, label VARCHAR(40))');
  await connection.query('INSERT INTO markers VALUES (1, ?)', ['spawn']);
  await connection.end();

  await row.getByRole('button', { name: 'Rotate password' }).click();
  await page.getByRole('dialog', { name: 'Rotate password' }).getByRole('button', { name: 'Rotate' }).click();
  await expect(row.getByRole('status')).toContainText('The password was changed');
  await expect(row.getByText(password, { exact: true })).toHaveCount(0);
  const rotated = await copied(row, 'password');
  expect(rotated).not.toBe(password);
  expect(await refused(endpoint, username, password, name)).toBe('ER_ACCESS_DENIED_ERROR');
  const again = await connect(endpoint, username, rotated, name);
  const [found] = await again.query('SELECT label FROM markers');
  expect(found).toEqual([{ label: 'spawn' }]);
  await again.end();

  await row.getByRole('button', { name: 'Delete database' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete database' });
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await confirm.getByRole('textbox', { name: /to confirm/ }).fill('webmap');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await confirm.getByRole('textbox', { name: /to confirm/ }).fill(name);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No databases yet')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No databases yet')).toBeVisible();
  // Gone from the host too: its user can no longer sign in.
  expect(await refused(endpoint, username, rotated, name)).toBe('ER_ACCESS_DENIED_ERROR');
});

test('a subuser with database.read alone sees the connection details, no password and no actions', async ({
  page,
  request,
  cli,
  makeUser,
  makeServer,
  signIn,
  makeSubuser,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const { token } = cli<{ token: string }>(['apikey:create', '--email', owner.email, '--description', 'e2e databases']);
  const created = await request.post(`/api/client/servers/${server.uuid}/databases`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    data: { database: 'perms', remote: '%' },
  });
  expect(created.status()).toBe(200);
  const sub = makeSubuser(server, 'database.read');

  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}/databases`);
  const row = page.getByRole('listitem', { name: `s${server.id}_perms` });
  await expect(row.getByRole('button', { name: /^Copy username: / })).toBeVisible();
  await row.getByRole('button', { name: /^Details of / }).click();
  await expect(row.getByText(/The password is hidden from your account/)).toBeVisible();
  await expect(row.getByRole('note')).toContainText('Needs the database.view_password permission');
  await expect(row.getByRole('button', { name: /^Copy connection url: mysql:\/\/u[^:]+@/ })).toBeVisible();
  await expect(row.getByText('Password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show password' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rotate password' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete database' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New database' })).toBeDisabled();
  // Explained, not just disabled: the button points at the line naming what the subuser lacks.
  await expect(page.getByRole('button', { name: 'New database' })).toHaveAccessibleDescription(/database\.create/);
});
