import { test, expect } from './fixtures';

/*
 * The Startup page against the real panel: a value typed into a variable shows in the command at
 * once, is saved after a pause and survives a reload; a value the egg's rules refuse shows the
 * rule's message on its field; a subuser who may only read sees every field locked.
 */

test('an edited variable shows in the command preview and a reload keeps it', async ({ page, cli, makeUser, signIn }) => {
  const owner = makeUser();
  const server = cli<{ identifier: string }>(['server:create', '--owner', owner.email, '--name', 'Paper startup', '--egg', 'Paper']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/startup`);

  const preview = page.getByLabel('Startup command preview');
  await expect(preview).toContainText('-jar server.jar');
  const jar = page.getByRole('textbox', { name: 'Server Jar File' });
  await jar.fill('paper-1.21.jar');
  await expect(preview).toContainText('-jar paper-1.21.jar');
  await expect(page.getByRole('group', { name: 'Server Jar File' }).getByText('Saved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Server Jar File' })).toHaveValue('paper-1.21.jar');
  await expect(page.getByLabel('Startup command preview')).toContainText('-jar paper-1.21.jar');
});

test("a value the rules refuse shows the rule's message on its field", async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/startup`);

  const players = page.getByRole('textbox', { name: 'Max players' });
  await players.fill('500');
  const field = page.getByRole('group', { name: 'Max players' });
  await expect(field.getByRole('alert')).toHaveText('Max players must be between 1 and 100.');
  await expect(players).toHaveAttribute('aria-invalid', 'true');

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Max players' })).toHaveValue('20');
});

test('a subuser with only startup.read sees every variable read-only', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'startup.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}/startup`);

  for (const name of ['Message of the day', 'Max players']) {
    await expect(page.getByRole('group', { name }).getByText('Read only')).toBeVisible();
    await expect(page.getByRole('textbox', { name })).toHaveAttribute('readonly', '');
  }
  await expect(page.getByRole('textbox', { name: 'Max players' })).toHaveValue('20');
});

test("switching the container image: the egg's images offered, the choice kept after a reload and shown on the overview", async ({
  page,
  cli,
  makeUser,
  signIn,
}) => {
  const owner = makeUser();
  const server = cli<{ identifier: string }>(['server:create', '--owner', owner.email, '--name', 'Paper image', '--egg', 'Paper']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/startup`);
  const image = page.getByRole('combobox', { name: /^Image (the server runs in|for a node that runs images)/ });
  await expect(image).toHaveValue('ghcr.io/pterodactyl/yolks:java_21');
  await image.selectOption('ghcr.io/pterodactyl/yolks:java_17');
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: /^Image (the server runs in|for a node that runs images)/ })).toHaveValue(
    'ghcr.io/pterodactyl/yolks:java_17',
  );
  await page.goto(`/server/${server.identifier}/overview`);
  await expect(page.getByText('ghcr.io/pterodactyl/yolks:java_17')).toBeVisible();
});
