import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { E2eServer } from './fixtures';
import { test, expect } from './fixtures';

/* Uploads past the node's per-request limit, in chunks, and past the server's disk (issue 22 #5). */

/** Writes `bytes` random bytes to `file` in the test's own output folder; returns their SHA-256. */
function randomFile(file: string, bytes: number): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  try {
    for (let done = 0; done < bytes; done += 8 * 1024 * 1024) {
      const block = randomBytes(Math.min(8 * 1024 * 1024, bytes - done));
      hash.update(block);
      fs.writeSync(fd, block);
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

// Before, a file past the node's 100 MiB per-request limit was refused outright (SFTP only).
test('a 150 MB upload in chunks succeeds, and goes on after a chunk is lost on the way', async ({
  page,
  makeUser,
  cli,
  signIn,
  filesOf,
}, testInfo) => {
  test.setTimeout(240_000);
  const owner = makeUser();
  const server = cli<E2eServer>(['server:create', '--owner', owner.email, '--name', 'Big world', '--disk', '1024']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);

  const size = 150 * 1000 * 1000;
  const big = testInfo.outputPath('world.zip');
  const sha256 = randomFile(big, size);
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('upload_id=') && request.method() === 'PUT') chunks.push(request.headers()['content-range'] ?? '');
  });
  // The third chunk never reaches the node, as when a connection drops: the SPA asks where the upload stands and goes on.
  let seen = 0;
  await page.route(
    (url) => url.searchParams.has('upload_id'),
    async (route) => {
      seen += 1;
      if (seen === 3) await route.abort('connectionreset');
      else await route.continue();
    },
    { times: 3 },
  );

  const started = Date.now();
  await page.getByLabel('Files to upload').setInputFiles(big);
  await expect(page.getByRole('progressbar', { name: 'Upload of world.zip' })).toBeVisible();
  await expect(page.getByText('Uploaded')).toBeVisible({ timeout: 200_000 });
  const seconds = (Date.now() - started) / 1000;
  testInfo.annotations.push({ type: 'throughput', description: `${(size / 1e6 / seconds).toFixed(1)} MB/s (${seconds.toFixed(1)} s for 150 MB)` });
  await expect(page.getByRole('row', { name: /world\.zip/ })).toBeVisible();

  expect(await filesOf(server).digest('world.zip')).toEqual({ size, sha256 });
  // 18 chunks of 8 MiB, the lost one sent again after asking for the offset.
  expect(chunks.filter((range) => range.startsWith('bytes */'))).toEqual([`bytes */${size}`]);
  expect(chunks.filter((range) => range.startsWith(`bytes ${2 * 8 * 1024 * 1024}-`))).toHaveLength(2);
  expect(chunks.at(-1)).toBe(`bytes ${17 * 8 * 1024 * 1024}-${size - 1}/${size}`);
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
