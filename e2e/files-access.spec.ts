import { test, expect } from './fixtures';
import { row } from './files-support';

/* What the file manager shows to whom, and how it copes with a very large folder. */

test('a subuser with only file.read sees no write controls', async ({ page, makeUser, makeServer, signIn, filesOf, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  // By the owner (with their API key): the subuser could not.
  await filesOf(server).seed({ 'plugins/a.yml': 'a: 1', 'server.properties': 'motd=A' });
  const sub = makeSubuser(server, 'file.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'server.properties')).toBeVisible();
  for (const name of ['New folder', 'New file', 'Upload']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
  // Without file.read-content a file cannot be opened; folders still can.
  await expect(row(page, 'server.properties').getByRole('link')).toHaveCount(0);
  // Nothing to do with a selection, so nothing to select: no checkboxes, no selection bar.
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await row(page, 'server.properties').click();
  await expect(page.getByRole('toolbar', { name: 'Selected items' })).toHaveCount(0);
});

test('a 10,000-entry folder opens and scrolls to its last entry', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  // Seeding goes through the API (one archive the daemon extracts), a few seconds more than the page needs.
  test.setTimeout(60_000);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  // One archive through the API rather than 10,000 requests.
  await filesOf(server, page).seedArchive(
    Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`big/file-${String(i).padStart(5, '0')}.txt`, ''])),
  );
  await page.goto(`/server/${server.identifier}/files/big`);
  await expect(row(page, 'file-00000.txt')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('10,000 items')).toBeVisible();
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '10001');

  // The page is the scroller (one scrollbar); the rows are virtualised within it.
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect(row(page, 'file-09999.txt')).toBeInViewport();

  // The keyboard gets there too.
  await row(page, 'file-09999.txt').click();
  await page.keyboard.press('Home');
  await expect(row(page, 'file-00000.txt')).toBeFocused();
  await page.keyboard.press('End');
  await expect(row(page, 'file-09999.txt')).toBeFocused();
});
