import { test, expect } from './fixtures';

// The fixtures every journey relies on: seeding through the CLI and the API, and signing in without the UI.

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

test('filesOf seeds and reads files through the API, with the owner’s key or the signed-in page', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  filesOf,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const byKey = filesOf(server);
  await byKey.seed({ 'config/a.yml': 'a: 1', 'empty/': '', 'odd "name" <b>.txt': 'x' });
  expect(await byKey.read('config/a.yml')).toBe('a: 1');
  expect(await byKey.exists('empty')).toBe(true);
  expect(await byKey.exists('odd "name" <b>.txt')).toBe(true);
  expect(await byKey.exists('config/missing.yml')).toBe(false);
  expect(await byKey.exists('missing/a.yml')).toBe(false);

  await signIn(page, owner);
  const asPage = filesOf(server, page);
  await asPage.seedArchive({ 'world/region/r.0.mca': 'REGION', 'world/level.dat': 'LEVEL', 'logs/': '' });
  expect(await asPage.read('world/region/r.0.mca')).toBe('REGION');
  expect(await asPage.exists('logs')).toBe(true);
  // The archive itself is gone once extracted.
  const root = await page.request.get(`/api/client/servers/${server.uuid}/files/list`, { headers: { Accept: 'application/json' } });
  const names = ((await root.json()) as { data: { attributes: { name: string } }[] }).data.map((f) => f.attributes.name).sort();
  // Beside the seeded files, the demo game egg's program that every new server holds.
  expect(names).toEqual(['config', 'demo-game.mjs', 'empty', 'logs', 'odd "name" <b>.txt', 'world']);
});
