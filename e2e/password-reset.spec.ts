import { test, expect } from './fixtures';
import { mailedLink } from './support/mail';

/*
 * Resetting a forgotten password through the mail the panel really sends: global-setup.ts runs the
 * SMTP server the panel is configured with and writes each mail it receives to E2E_MAIL_FILE.
 */

test('resetting a forgotten password through the mailed link', async ({ page, makeUser }) => {
  const user = makeUser();
  const newPassword = `${user.password}-renewed`;

  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText(`If an account exists for ${user.email}`);

  const link = await mailedLink(user.email);
  await page.goto(link.pathname + link.search);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set password' }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('status')).toHaveText('Your password has been reset. Sign in with the new one.');
  // The reset's address is filled in and the password is next.
  await expect(page.getByLabel('Username or email')).toHaveValue(user.email);
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();

  // The link was spent: opened again, it is refused.
  await page.context().clearCookies();
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('another password');
  await page.getByLabel('Confirm new password').fill('another password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset token is invalid.');
});
