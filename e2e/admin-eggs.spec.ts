import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

// The admin area's eggs (issue 25 §3): import a real egg file, see it, change a variable, export it.

const EGG_FILE = path.resolve('server', 'test', 'eggs', 'ptdl-v2-mumble.json');

test('a root admin imports an egg file, edits a variable, and exports the egg', async ({ page, makeUser, signIn }) => {
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Eggs' }).click();
  await expect(page).toHaveURL(/\/admin\/eggs$/);
  await expect(page.getByRole('region', { name: 'Nest Aerie' })).toBeVisible();

  await page.getByLabel('Egg file').setInputFiles(EGG_FILE);
  await expect(page.getByRole('heading', { level: 2, name: 'Mumble Server' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/eggs\/\d+\/\d+$/);
  const variables = page.getByRole('list', { name: 'Variables' });
  await expect(variables).toContainText('required|numeric|digits_between:1,5');

  await page.getByRole('button', { name: 'Edit MAX_USERS' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit variable MAX_USERS' });
  await dialog.getByLabel('Default value').fill('42');
  await dialog.getByRole('button', { name: 'Save variable' }).click();
  await expect(dialog).toBeHidden();
  await expect(variables).toContainText('42');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('egg-mumble-server.json');
  const saved = await file.path();
  const egg = JSON.parse(fs.readFileSync(saved, 'utf8')) as {
    meta: { version: string };
    name: string;
    variables: { env_variable: string; default_value: string }[];
  };
  expect(egg.meta.version).toBe('PTDL_v2');
  expect(egg.name).toBe('Mumble Server');
  expect(egg.variables).toEqual([expect.objectContaining({ env_variable: 'MAX_USERS', default_value: '42' })]);
});
