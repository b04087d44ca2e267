import type { APIResponse, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

export interface SignInUser {
  email: string;
  password: string;
  /** Base32 TOTP secret: when present the 2FA checkpoint is answered with a fresh code. */
  secret?: string;
}

async function xsrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('signIn: no XSRF-TOKEN cookie after GET /sanctum/csrf-cookie');
  return decodeURIComponent(cookie.value);
}

async function expectOk(response: APIResponse, what: string): Promise<Record<string, unknown>> {
  if (!response.ok()) throw new Error(`signIn: ${what} answered ${response.status()}: ${await response.text()}`);
  const body: unknown = await response.json();
  const data = (body as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

/**
 * Signs in without the UI, the way the SPA does (csrf-cookie, then login, then the checkpoint when
 * 2FA is on), through page.request so the session cookie lands in the page's browser context.
 */
export async function signInThroughApi(page: Page, user: SignInUser): Promise<void> {
  const csrf = await page.request.get('/sanctum/csrf-cookie');
  if (csrf.status() >= 400) throw new Error(`signIn: GET /sanctum/csrf-cookie answered ${csrf.status()}`);
  const headers = () => xsrfToken(page).then((token) => ({ 'X-XSRF-TOKEN': token, Accept: 'application/json' }));

  const login = await expectOk(
    await page.request.post('/auth/login', { data: { user: user.email, password: user.password }, headers: await headers() }),
    'POST /auth/login',
  );
  if (login.complete === true) return;
  if (!user.secret) throw new Error(`signIn: ${user.email} needs a second factor but the fixture has no TOTP secret`);
  const code = new TOTP({ secret: Secret.fromBase32(user.secret), digits: 6, period: 30 }).generate();
  const checkpoint = await expectOk(
    await page.request.post('/auth/login/checkpoint', {
      data: { confirmation_token: login.confirmation_token, authentication_code: code },
      headers: await headers(),
    }),
    'POST /auth/login/checkpoint',
  );
  if (checkpoint.complete !== true) throw new Error('signIn: the checkpoint did not complete the login');
}
