import fs from 'node:fs';
import type { E2eServer } from './fixtures';
import { test, expect } from './fixtures';

/* Uploads past the node's limit (issue 22 #5). */

test('a file over the upload limit is refused before sending, naming the limit and SFTP', async ({
  page,
  makeUser,
  cli,
  signIn,
  filesOf,
}, testInfo) => {
  const owner = makeUser();
  const server = cli<E2eServer>(['server:create', '--owner', owner.email, '--name', 'Big world']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);

  // One byte past the panel's default 100 MiB limit, made in the test's own output folder.
  const big = testInfo.outputPath('world.zip');
  fs.writeFileSync(big, '');
  fs.truncateSync(big, 100 * 1024 * 1024 + 1);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/upload/file')) sent.push(request.url());
  });

  await page.getByLabel('Files to upload').setInputFiles(big);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /^world\.zip: The file is larger than the 100 MiB upload limit\. Upload it over SFTP instead \(sftp:\/\/.+:\d+\)\.$/ }),
  ).toBeVisible();
  expect(sent).toEqual([]);
  expect(await filesOf(server, page).exists('world.zip')).toBe(false);
});

test("a file bigger than the server's whole disk is refused before sending", async ({ page, makeUser, cli, signIn }) => {
  const owner = makeUser();
  const server = cli<E2eServer>(['server:create', '--owner', owner.email, '--name', 'Tiny disk', '--disk', '1']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/files/upload') || request.url().includes('/upload/file')) asked.push(request.url());
  });

  await page
    .getByLabel('Files to upload')
    .setInputFiles({ name: 'world.zip', mimeType: 'application/zip', buffer: Buffer.alloc(3 * 1024 * 1024, 1) });
  await expect(
    page.getByRole('alert').filter({ hasText: "world.zip: The file is larger than this server's whole disk limit (1 MiB)." }),
  ).toBeVisible();
  expect(asked).toEqual([]);
});
