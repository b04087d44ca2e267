import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { xsrfHeaders } from './support/hostile';
import { test, expect } from './fixtures';

/*
 * Settings that reach every page of the panel (its name, and two-factor required of everyone) would
 * change what every other spec sees while they are on: this file runs in its own project, after all
 * the others (playwright.config.ts), one test at a time, and each test puts them back.
 */
test.describe.configure({ mode: 'serial' });

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
