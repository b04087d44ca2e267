import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { test, expect, type E2eUser } from './fixtures';

/* The account area: password, two-factor, API keys and SSH keys, each proved from outside the page. */

/** The code of the current 30-second step, or of the next (the one that turned two-factor on is spent). */
const totpCode = (secret: string, next = false) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + (next ? 30_000 : 0) });

async function signOut(page: Page, user: Pick<E2eUser, 'username'>) {
  await page.getByRole('button', { name: user.username }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

async function signInThroughForm(page: Page, login: string, password: string) {
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('changing the password: the old one fails afterwards, the new one signs in', async ({ page, makeUser, signIn }) => {
  const user = makeUser();
  await signIn(page, user);
  await page.goto('/');
  await page.getByRole('button', { name: user.username }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole('link', { name: 'Password' }).click();

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill('a-new-password-1');
  await page.getByLabel('Confirm new password').fill('a-new-password-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status')).toContainText('other session');

  await signOut(page, user);
  await signInThroughForm(page, user.username, user.password);
  await expect(page.getByRole('alert')).toHaveText('No account matching those credentials could be found.');
  await signInThroughForm(page, user.username, 'a-new-password-1');
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});

test('turning on two-factor from the secret on the page, then signing in with a code', async ({ page, makeUser, signIn }) => {
  const user = makeUser();
  await signIn(page, user);
  await page.goto('/account/two-factor');
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('img', { name: /QR code/ }).locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Turn on' }).click();

  const dialog = page.getByRole('dialog', { name: 'Two-factor authentication is on' });
  await expect(dialog.getByRole('listitem')).toHaveCount(10);
  // Neither Escape nor a click outside loses the tokens.
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download .txt' }).click();
  expect((await download).suggestedFilename()).toBe('recovery-tokens.txt');
  await dialog.getByRole('button', { name: 'I saved them' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();

  await signOut(page, user);
  await signInThroughForm(page, user.username, user.password);
  await page.getByLabel('Authentication code').fill(totpCode(secret, true));
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});

test('an API key made on the page works from outside it, until deleted', async ({ page, makeUser, signIn, baseURL }) => {
  const user = makeUser();
  await signIn(page, user);
  await page.goto('/account/api-keys');
  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByLabel('Description').fill('From the test');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const key = (await page.getByTestId('api-key-secret').innerText()).trim();

  const me = () => fetch(`${baseURL}/api/client/account`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
  const answer = await me();
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { attributes: { email: string } }).attributes.email).toBe(user.email);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('api-key-secret')).toBeHidden();
  await page.getByRole('button', { name: 'Delete From the test' }).click();
  await page.getByRole('dialog', { name: 'Delete API key' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  expect((await me()).status).toBe(401);
});

test('adding an SSH key made by ssh-keygen shows its fingerprint; removing it', async ({ page, makeUser, signIn }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-ssh-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'e2e', '-f', path.join(dir, 'key')]);
    const publicKey = fs.readFileSync(path.join(dir, 'key.pub'), 'utf8');
    const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', path.join(dir, 'key.pub')], { encoding: 'utf8' }).split(' ')[1];

    const user = makeUser();
    await signIn(page, user);
    await page.goto('/account/ssh-keys');
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add SSH key' });
    await dialog.getByLabel('Name').fill('laptop');
    await dialog.getByLabel('Public key').fill('ssh-ed25519 not-a-key');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog.getByLabel('Public key')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Public key').fill(publicKey);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: 'SSH keys' })).toContainText(fingerprint ?? 'missing');

    await page.getByRole('button', { name: 'Remove laptop' }).click();
    await page.getByRole('dialog', { name: 'Remove SSH key' }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No SSH keys yet')).toBeVisible();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
