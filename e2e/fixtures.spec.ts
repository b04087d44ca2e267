import { test, expect } from './fixtures';

// The fixtures every journey relies on: seeding through the CLI and signing in without the UI.

test('signIn gives the page a session that sees the seeded server', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email, 'Fixture check');
  await signIn(page, owner);
  const response = await page.request.get('/api/client', { headers: { Accept: 'application/json' } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { attributes: { identifier: string; name: string } }[] };
  expect(body.data.map((s) => s.attributes)).toEqual([expect.objectContaining({ identifier: server.identifier, name: 'Fixture check' })]);
});

test('signIn answers the 2FA checkpoint for a user with TOTP on', async ({ page, makeUser, signIn }) => {
  const user = makeUser({ totp: true });
  expect(user.recovery_tokens).toHaveLength(10);
  await signIn(page, user);
  const response = await page.request.get('/api/client', { headers: { Accept: 'application/json' } });
  expect(response.status()).toBe(200);
});
