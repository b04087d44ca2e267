import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { test, expect, type E2eUser } from './fixtures';

/*
 * The sign-in journeys. This is the one spec that signs in through the UI (e2e/README.md); the
 * checkpoint's confirmation token, challenge cookie and session cookie are all the real ones.
 */

function totpCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

async function submitCredentials(page: Page, user: Pick<E2eUser, 'username' | 'password'>) {
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOutThroughMenu(page: Page, user: Pick<E2eUser, 'username'>) {
  await page.getByRole('button', { name: user.username }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

test('signing in without two-factor lands on the server list', async ({ page, makeUser }) => {
  const user = makeUser();
  await page.goto('/auth/login');
  await submitCredentials(page, user);
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: user.username })).toBeVisible();
});

test('a wrong password is refused with a message', async ({ page, makeUser }) => {
  const user = makeUser();
  await page.goto('/auth/login');
  await submitCredentials(page, { ...user, password: `${user.password}-wrong` });
  await expect(page.getByRole('alert')).toHaveText('No account matching those credentials could be found.');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('signing in with a TOTP code', async ({ page, makeUser }) => {
  const user = makeUser({ totp: true });
  await page.goto('/auth/login');
  await submitCredentials(page, user);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  // Six digits submit the step by themselves.
  await code.fill(totpCode(user.secret ?? ''));
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});

test('a wrong code is shown on the code field', async ({ page, makeUser }) => {
  const user = makeUser({ totp: true });
  await page.goto('/auth/login');
  await submitCredentials(page, user);
  const right = Number(totpCode(user.secret ?? ''));
  const code = page.getByLabel('Authentication code');
  await code.fill(String((right + 500_000) % 1_000_000).padStart(6, '0'));
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('The two-factor authentication token was invalid.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login\/checkpoint/);
});

test('the two-factor step survives a reload', async ({ page, makeUser }) => {
  const user = makeUser({ totp: true });
  await page.goto('/auth/login');
  await submitCredentials(page, user);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.reload();
  await page.getByLabel('Authentication code').fill(totpCode(user.secret ?? ''));
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});

test('a recovery token signs in once and is refused the second time', async ({ page, makeUser }) => {
  const user = makeUser({ totp: true });
  const token = user.recovery_tokens?.[0] ?? '';
  expect(token).not.toBe('');

  await page.goto('/auth/login');
  await submitCredentials(page, user);
  await page.getByRole('button', { name: 'Use a recovery token instead' }).click();
  await page.getByLabel('Recovery token').fill(token);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();

  await signOutThroughMenu(page, user);
  await submitCredentials(page, user);
  await page.getByRole('button', { name: 'Use a recovery token instead' }).click();
  const field = page.getByLabel('Recovery token');
  await field.fill(token);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('The recovery token provided is not valid.')).toBeVisible();
});

test('signing out ends the session', async ({ page, makeUser, signIn }) => {
  const user = makeUser();
  await signIn(page, user);
  await page.goto('/');
  await signOutThroughMenu(page, user);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const response = await page.request.get('/api/client', { headers: { Accept: 'application/json' } });
  expect(response.status()).toBe(401);
});

test('a deep link opened while signed out comes back after sign-in', async ({ page, makeUser, makeServer }) => {
  const user = makeUser();
  const server = makeServer(user.email, 'Deep Link');
  await page.goto(`/server/${server.identifier}`);
  await expect(page).toHaveURL(`/auth/login?redirect=${encodeURIComponent(`/server/${server.identifier}`)}`);
  await submitCredentials(page, user);
  await expect(page).toHaveURL(`/server/${server.identifier}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Deep Link' })).toBeVisible();
});
