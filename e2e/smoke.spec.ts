import { test, expect } from './fixtures';

test('serves the SPA at /', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Aerie/);
});

test('answers an unauthenticated API request with 401 and an error document', async ({ request }) => {
  const response = await request.get('/api/client', { headers: { Accept: 'application/json' } });
  expect(response.status()).toBe(401);
  const body = (await response.json()) as { errors?: { code?: string; status?: string; detail?: string }[] };
  expect(body.errors?.[0]).toMatchObject({ code: 'AuthenticationException', status: '401' });
});
