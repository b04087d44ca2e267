import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { row, rowAction } from './files-support';

/*
 * The Backups page against the real panel and node: a backup is made and completes, downloads as
 * a gzip archive, locks and unlocks, restores with and without wiping the files first, and is
 * deleted; a subuser who may only read sees the list and nothing to do.
 */

const backupRows = (page: Page) => page.getByRole('list', { name: 'Backups' }).getByRole('listitem');
const tray = (page: Page) => page.getByRole('region', { name: 'Backup operations' });

/** Makes a backup from the page and waits for the node to finish it. */
async function createBackup(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Create backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create backup' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(tray(page).getByText('Completed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('listitem', { name }).getByRole('button', { name: /^Copy checksum: sha1:/ })).toBeVisible();
}

async function backupAction(page: Page, name: string, item: string): Promise<void> {
  await page
    .getByRole('listitem', { name })
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** Restores `name` from its menu, typing the name, and waits for the restore to end. */
async function restore(page: Page, name: string, wipe: boolean): Promise<void> {
  await backupAction(page, name, 'Restore');
  const dialog = page.getByRole('dialog', { name: 'Restore backup' });
  if (wipe) await dialog.getByRole('checkbox', { name: /Delete all files first/ }).check();
  await expect(dialog).toContainText(wipe ? 'every one of its files is deleted' : 'Files not in the backup stay as they are');
  await expect(dialog.getByRole('button', { name: 'Restore' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: `Type ${name} to confirm` }).fill(name);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(dialog).toBeHidden();
  // The outcome comes from the activity log's `server:backup.restore-complete`.
  await expect(tray(page).getByText('Restored')).toBeVisible({ timeout: 30_000 });
}

/** Deletes a file through the file manager's row menu. */
async function deleteInFileManager(page: Page, serverId: string, file: string): Promise<void> {
  await page.goto(`/server/${serverId}/files`);
  await rowAction(page, file, 'Delete');
  await page
    .getByRole('dialog', { name: `Delete “${file}”?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row(page, file)).toHaveCount(0);
}

test('create a backup and watch it complete, download it as a gzip, lock, unlock and delete it', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  filesOf,
}) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({ 'server.properties': 'motd=Backed up\n', 'world/level.dat': 'LEVEL' });
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByText('No backups yet')).toBeVisible();
  await expect(page.getByText('0 of 3 used')).toBeVisible();

  await createBackup(page, 'First');
  await expect(backupRows(page)).toHaveCount(1);
  await expect(page.getByText('1 of 3 used')).toBeVisible();

  const download = page.waitForEvent('download');
  await backupAction(page, 'First', 'Download');
  const path = await (await download).path();
  const bytes = await readFile(path);
  expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);

  await backupAction(page, 'First', 'Lock');
  await expect(page.getByRole('listitem', { name: 'First' }).getByText('Locked')).toBeVisible();
  await page.getByRole('listitem', { name: 'First' }).getByRole('button', { name: 'Actions for First' }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveAccessibleDescription('Locked backups cannot be deleted. Unlock it first.');
  await page.getByRole('menuitem', { name: 'Unlock' }).click();
  await expect(page.getByRole('listitem', { name: 'First' }).getByText('Locked')).toHaveCount(0);

  await backupAction(page, 'First', 'Delete');
  await page.getByRole('dialog', { name: 'Delete backup' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No backups yet')).toBeVisible();

  await page.goto(`/server/${server.identifier}/activity`);
  const events = page.getByRole('list', { name: 'Activity entries' });
  for (const event of [
    'server:backup.start',
    'server:backup.complete',
    'server:backup.download',
    'server:backup.lock',
    'server:backup.unlock',
    'server:backup.delete',
  ]) {
    await expect(events.getByRole('button', { name: `Filter by ${event}` }).first()).toBeVisible();
  }
});

test('restore without wiping brings a deleted file back and keeps newer ones', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  const files = filesOf(server, page);
  await files.seed({ 'keep.txt': 'from the backup' });
  await page.goto(`/server/${server.identifier}/backups`);
  await createBackup(page, 'Before delete');

  await deleteInFileManager(page, server.identifier, 'keep.txt');
  await files.seed({ 'newer.txt': 'made after the backup' });

  await page.goto(`/server/${server.identifier}/backups`);
  await restore(page, 'Before delete', false);
  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'keep.txt')).toBeVisible();
  await expect(row(page, 'newer.txt')).toBeVisible();
  expect(await files.read('keep.txt')).toBe('from the backup');
});

test('restore after deleting all files first brings the file back and removes files not in the backup', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  filesOf,
}) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  const files = filesOf(server, page);
  await files.seed({ 'keep.txt': 'from the backup' });
  await page.goto(`/server/${server.identifier}/backups`);
  await createBackup(page, 'Clean slate');

  await deleteInFileManager(page, server.identifier, 'keep.txt');
  await files.seed({ 'newer.txt': 'made after the backup' });

  await page.goto(`/server/${server.identifier}/backups`);
  await restore(page, 'Clean slate', true);
  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'keep.txt')).toBeVisible();
  await expect(row(page, 'newer.txt')).toHaveCount(0);
  expect(await files.exists('newer.txt')).toBe(false);
});

test('a subuser with only backup.read sees the backups and no action', async ({ page, request, cli, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const { token } = cli<{ token: string }>(['apikey:create', '--email', owner.email, '--description', 'e2e backups']);
  const made = await request.post(`/api/client/servers/${server.uuid}/backups`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    data: { name: 'Owner made' },
  });
  expect(made.status()).toBe(200);

  const sub = makeSubuser(server, 'backup.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Backups' }).click();
  await expect(backupRows(page)).toHaveCount(1);
  await expect(page.getByRole('listitem', { name: 'Owner made' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create backup' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
});

test('after two backups in ten minutes the counter and Create agree before any dialog opens: Create says when the next can start', async ({
  page,
  request,
  cli,
  makeUser,
  makeServer,
  signIn,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const { token } = cli<{ token: string }>(['apikey:create', '--email', owner.email, '--description', 'e2e backup throttle']);
  for (const name of ['One', 'Two']) {
    const made = await request.post(`/api/client/servers/${server.uuid}/backups`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      data: { name },
    });
    expect(made.status()).toBe(200);
  }
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/backups`);
  await expect(page.getByRole('listitem', { name: 'Two' }).getByRole('button', { name: /^Copy checksum: sha1:/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('2 of 3 used')).toBeVisible();
  const create = page.getByRole('button', { name: 'Create backup' });
  const throttled = page.getByText(/^Only 2 backups may be started within 10 minutes: the next one can start at \d/);
  await expect(create).toBeDisabled();
  await expect(throttled).toBeVisible();

  // Deleting one frees the counter, not the throttle (deleted backups count): Create stays off and says why.
  await backupAction(page, 'Two', 'Delete');
  await page.getByRole('dialog', { name: 'Delete backup' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('1 of 3 used')).toBeVisible();
  await expect(create).toBeDisabled();
  await expect(throttled).toBeVisible();
});
