import type { E2eServer } from './fixtures';
import { test, expect } from './fixtures';
import { row } from './files-support';

/* The file manager after a refusal: the page stays usable and the next action answers. */

test('after an upload refused at the disk limit, the next action works', async ({ page, makeUser, cli, signIn, filesOf }) => {
  const owner = makeUser();
  const server = cli<E2eServer>(['server:create', '--owner', owner.email, '--name', 'Tiny disk', '--disk', '1']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);

  // 1 MiB on a 1 MiB disk that already holds the game: refused by the node at the end of its body
  // (a file bigger than the whole disk is refused by the SPA before sending, see files-upload.spec.ts).
  await page.getByLabel('Files to upload').setInputFiles({ name: 'world.zip', mimeType: 'application/zip', buffer: Buffer.alloc(1024 * 1024, 1) });
  await expect(page.getByText('There is not enough disk space available to complete this action.')).toBeVisible();

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('after');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await expect(row(page, 'after')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const files = filesOf(server, page);
  expect(await files.exists('after')).toBe(true);
  expect(await files.exists('world.zip')).toBe(false);
});

test('after a save refused at the disk limit, the next action works', async ({ page, makeUser, cli, signIn, filesOf }) => {
  const owner = makeUser();
  const server = cli<E2eServer>(['server:create', '--owner', owner.email, '--name', 'Tiny disk', '--disk', '1']);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'notes.txt': 'start\n' });
  await page.goto(`/server/${server.identifier}/file/notes.txt`);
  const editor = page.getByRole('textbox', { name: 'Contents of notes.txt' });
  await expect(editor).toContainText('start');
  await editor.click();
  // 3 MiB on a 1 MiB disk: the write is refused half-way through its body.
  await page.keyboard.insertText('x'.repeat(3 * 1024 * 1024));
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByText('There is not enough disk space available to complete this action.')).toBeVisible();

  // In the same page, so the browser reuses its connection to the panel.
  await page.getByRole('link', { name: '/home/container' }).click();
  await page.getByRole('button', { name: 'Leave without saving' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('after');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await expect(row(page, 'after')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await filesOf(server, page).read('notes.txt')).toBe('start\n');
});
