import { test, expect } from './fixtures';
import { row, rowAction } from './files-support';

/* The file manager: browsing, creating, editing, copying, renaming, archives, deleting, uploading. */

test('browses into folders and back with the browser buttons', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'plugins/Essentials/config.yml': 'a: 1', 'eula.txt': 'eula=true' });
  await page.goto(`/server/${server.identifier}/files`);

  await row(page, 'plugins').getByRole('link', { name: 'plugins' }).click();
  await expect(page).toHaveURL(new RegExp(`/server/${server.identifier}/files/plugins$`));
  await row(page, 'Essentials').getByRole('link', { name: 'Essentials' }).click();
  await expect(row(page, 'config.yml')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Folder path' })).toContainText('Essentials');

  await page.goBack();
  await expect(row(page, 'Essentials')).toBeVisible();
  await page.goBack();
  await expect(row(page, 'eula.txt')).toBeVisible();
  await page.goForward();
  await expect(row(page, 'Essentials')).toBeVisible();
  await expect(page).toHaveURL(/\/files\/plugins$/);
});

test('creates a folder', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('maps');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await expect(row(page, 'maps')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await filesOf(server, page).exists('maps')).toBe(true);
});

test('creates a file, edits and saves it, and shows the new contents after a reload', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);
  await page.getByRole('button', { name: 'New file' }).click();
  await page.getByLabel('File name').fill('notes.txt');
  await page.getByRole('button', { name: 'Open editor' }).click();
  await expect(page).toHaveURL(/\/file\/notes\.txt\?new=1$/);

  const editor = page.getByRole('textbox', { name: 'Contents of notes.txt' });
  await editor.click();
  await page.keyboard.type('first line');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page).toHaveURL(/\/file\/notes\.txt$/);
  await expect(page.getByRole('img', { name: 'Unsaved changes' })).toHaveCount(0);

  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\nsecond line');
  await expect(page.getByRole('img', { name: 'Unsaved changes' })).toBeVisible();
  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByRole('img', { name: 'Unsaved changes' })).toHaveCount(0);

  await page.reload();
  const reloaded = page.getByRole('textbox', { name: 'Contents of notes.txt' });
  await expect(reloaded).toContainText('first line');
  await expect(reloaded).toContainText('second line');
  expect(await filesOf(server, page).read('notes.txt')).toBe('first line\nsecond line');
});

test('asks before leaving the editor with unsaved changes', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'motd.txt': 'hello' });
  await page.goto(`/server/${server.identifier}/file/motd.txt`);
  const editor = page.getByRole('textbox', { name: 'Contents of motd.txt' });
  await expect(editor).toContainText('hello');
  await editor.click();
  await page.keyboard.type(' world');
  await page.getByRole('link', { name: '/home/container' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toContainText('hello world');
  await page.getByRole('link', { name: '/home/container' }).click();
  await page.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(row(page, 'motd.txt')).toBeVisible();
  expect(await filesOf(server, page).read('motd.txt')).toBe('hello');
});

test('copies a file', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'server.properties': 'motd=A' });
  await page.goto(`/server/${server.identifier}/files`);
  await rowAction(page, 'server.properties', 'Copy');
  await expect(row(page, 'server copy.properties')).toBeVisible();
  expect(await filesOf(server, page).read('server copy.properties')).toBe('motd=A');
});

test('downloads a file from its row menu', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'server.properties': 'motd=A' });
  await page.goto(`/server/${server.identifier}/files`);
  const download = page.waitForEvent('download');
  await rowAction(page, 'server.properties', 'Download');
  expect((await download).suggestedFilename()).toBe('server.properties');
});

test('renames a file', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'old-name.txt': 'x' });
  await page.goto(`/server/${server.identifier}/files`);
  await rowAction(page, 'old-name.txt', 'Rename or move');
  await page.getByLabel('New name or path').fill('new-name.txt');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(row(page, 'new-name.txt')).toBeVisible();
  await expect(row(page, 'old-name.txt')).toHaveCount(0);
});

test('a failed rename shows its error in the dialog', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'a.txt': 'a', 'logs/a.txt': 'taken' });
  await page.goto(`/server/${server.identifier}/files`);
  await rowAction(page, 'a.txt', 'Rename or move');
  const dialog = page.getByRole('dialog', { name: 'Rename “a.txt”' });
  await dialog.getByLabel('New name or path').fill('logs/a.txt');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/exists/i);
  await expect(dialog).toBeVisible();
});

test('compresses a folder, then decompresses the archive', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'world/level.dat': 'LEVEL', 'restore/': '' });
  await page.goto(`/server/${server.identifier}/files`);
  await rowAction(page, 'world', 'Compress');
  const archive = page.getByRole('row', { name: /^archive-.*\.tar\.gz$/ });
  await expect(archive).toBeVisible();
  const name = (await archive.getAttribute('aria-label')) ?? '';

  // Move the archive into an empty folder and extract it there.
  await rowAction(page, name, 'Rename or move');
  await page.getByLabel('New name or path').fill(`restore/${name}`);
  await page.getByRole('button', { name: 'Rename' }).click();
  await row(page, 'restore').getByRole('link', { name: 'restore' }).click();
  await rowAction(page, name, 'Decompress');
  await expect(row(page, 'world')).toBeVisible();
  expect(await filesOf(server, page).read('restore/world/level.dat')).toBe('LEVEL');
});

test('deletes the selected files after confirmation', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'a.log': '1', 'b.log': '2', 'keep.txt': '3' });
  await page.goto(`/server/${server.identifier}/files`);
  await page.getByRole('checkbox', { name: 'Select a.log' }).check();
  await page.getByRole('checkbox', { name: 'Select b.log' }).check();
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 2 items?' });
  await expect(dialog.getByRole('listitem')).toHaveText(['a.log', 'b.log']);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'a.log')).toHaveCount(0);
  await expect(row(page, 'b.log')).toHaveCount(0);
  await expect(row(page, 'keep.txt')).toBeVisible();
  expect(await filesOf(server, page).exists('a.log')).toBe(false);
});

test('uploads a file with the picker', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'plugins/': '' });
  await page.goto(`/server/${server.identifier}/files/plugins`);
  await page.getByLabel('Files to upload').setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded!') });
  await expect(row(page, 'hello.txt')).toBeVisible();
  expect(await filesOf(server, page).read('plugins/hello.txt')).toBe('uploaded!');
});

test('uploads a file dropped onto the page', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  // A new server holds its egg's program: an empty folder to drop into.
  await filesOf(server, page).seed({ 'drops/': '' });
  await page.goto(`/server/${server.identifier}/files/drops`);
  await expect(page.getByText('This folder is empty')).toBeVisible();
  // Runs in the page (a string, since e2e code is type-checked without the DOM library).
  const dataTransfer = await page.evaluateHandle(`(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['dropped'], 'dropped.txt', { type: 'text/plain' }));
    return dt;
  })()`);
  const target = page.getByText('This folder is empty');
  await target.dispatchEvent('dragenter', { dataTransfer });
  await expect(page.getByText('Drop to upload')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer });
  await expect(row(page, 'dropped.txt')).toBeVisible();
  expect(await filesOf(server, page).read('drops/dropped.txt')).toBe('dropped');
});
