import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { e2eDataDir, runPanelCli } from './support/cli';
import { row, rowAction } from './files-support';
import { freePort } from '../server/test/node-support';
import { nodeStarted, spawnNodeProcess, type NodeProcess } from '../server/test/node-namespace';

/*
 * A server on a second node (issue 24 §5): Aerie's node run as its own process with the config.yml
 * `node:config` prints, as an operator sets one up. The browser reaches the node itself for the
 * console (its own address, in the CSP as the database holds it now) while the panel drives it
 * over Wings' API for power, commands and files.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const terminal = (page: Page) => page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });

let node: NodeProcess | undefined;
let nodeName = '';

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(60_000);
  nodeName = `second${Date.now().toString(36)}`;
  const [daemonPort, sftpPort] = [await freePort(), await freePort()];
  runPanelCli([
    'node:create',
    '--name',
    nodeName,
    '--fqdn',
    '127.0.0.1',
    '--scheme',
    'http',
    '--daemon-port',
    String(daemonPort),
    '--sftp-port',
    String(sftpPort),
    '--ports',
    '40000-40099',
  ]);
  const dataDir = path.join(e2eDataDir(), nodeName);
  // The panel's public URL is what the node calls back and the Origin its console accepts.
  process.env.APP_URL = baseURL;
  const { config } = runPanelCli<{ config: string }>(['node:config', '--name', nodeName, '--data-dir', dataDir, '--json']);
  const file = path.join(e2eDataDir(), `${nodeName}.yml`);
  fs.writeFileSync(file, config.replace('host: 0.0.0.0', 'host: 127.0.0.1'));
  // In a network namespace of its own where the machine allows it: it reaches the panel's port only.
  node = await spawnNodeProcess({
    config: file,
    ports: [daemonPort, sftpPort],
    panelPort: Number(new URL(baseURL ?? '').port),
    env: { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true' },
    cwd: ROOT,
  });
  await nodeStarted(node, 45_000);
  // The panel reads a node another process (the CLI) added into its pages' connect-src once its
  // cache of node origins expires (5 s); a page loaded before that could never reach the node.
  const origin = `ws://127.0.0.1:${daemonPort}`;
  await expect.poll(async () => (await fetch(`${baseURL}/`)).headers.get('content-security-policy') ?? '', { timeout: 15_000 }).toContain(origin);
});

test.afterAll(async () => {
  await node?.stop();
});

test('the console and the file manager of a server on the second node work in the browser', async ({ page, cli, makeUser, signIn }) => {
  test.setTimeout(120_000);
  const owner = makeUser();
  const server = cli<{ identifier: string; uuid: string; node: string }>([
    'server:create',
    '--owner',
    owner.email,
    '--name',
    'Far away',
    '--node',
    nodeName,
  ]);
  expect(server.node).toBe(nodeName);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  // The node installs the demo game and tells the panel; then the console answers from the node.
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 60_000 });
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(terminal(page)).toContainText('Done (', { timeout: 30_000 });
  await expect(serverStatus(page)).toHaveText('Running');
  const command = page.getByRole('textbox', { name: 'Console command' });
  await command.fill('say from afar');
  await command.press('Enter');
  await expect(terminal(page)).toContainText('[Server] from afar');
  await page.screenshot({ path: test.info().outputPath('second-node-console-1280.png'), fullPage: true });
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 30_000 });

  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Files' }).click();
  await expect(row(page, 'demo-game.mjs')).toBeVisible();
  await page.getByRole('button', { name: 'New file' }).click();
  await page.getByLabel('File name').fill('far.txt');
  await page.getByRole('button', { name: 'Open editor' }).click();
  const editor = page.getByRole('textbox', { name: 'Contents of far.txt' });
  await editor.click();
  await page.keyboard.type('written on the second node');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page).toHaveURL(/\/file\/far\.txt$/);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Contents of far.txt' })).toContainText('written on the second node');
  // Really on the second node's disk, not the panel's.
  expect(fs.readFileSync(path.join(e2eDataDir(), nodeName, 'volumes', server.uuid, 'far.txt'), 'utf8')).toBe('written on the second node');
  await page.screenshot({ path: test.info().outputPath('second-node-files-1280.png'), fullPage: true });
});

test.describe('a browser that sends no extra headers', () => {
  // The fixtures' X-Forwarded-For (one client address per test) is not a header a browser sends, and
  // the node's CORS, like Wings', does not allow it: the upload to the node's own address would fail.
  test.use({ extraHTTPHeaders: {} });

  test('edit, upload, download, back up and restore on a server of the second node in the browser', async ({ page, cli, makeUser, signIn }) => {
    test.setTimeout(90_000);
    const owner = makeUser();
    const server = cli<{ identifier: string; uuid: string }>(['server:create', '--owner', owner.email, '--name', 'Far files', '--node', nodeName]);
    const onDisk = (file: string) => path.join(e2eDataDir(), nodeName, 'volumes', server.uuid, file);
    await signIn(page, owner);
    await page.goto(`/server/${server.identifier}`);
    await expect(serverStatus(page)).toHaveText('Offline', { timeout: 60_000 });

    // Upload: the browser posts to the node's own address with the link the panel signed.
    await page.goto(`/server/${server.identifier}/files`);
    await page.getByLabel('Files to upload').setInputFiles({ name: 'motd.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded from afar') });
    await expect(row(page, 'motd.txt')).toBeVisible();
    expect(fs.readFileSync(onDisk('motd.txt'), 'utf8')).toBe('uploaded from afar');

    await page.goto(`/server/${server.identifier}/file/motd.txt`);
    const editor = page.getByRole('textbox', { name: 'Contents of motd.txt' });
    await expect(editor).toContainText('uploaded from afar');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(', then edited');
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page.getByRole('img', { name: 'Unsaved changes' })).toHaveCount(0);
    expect(fs.readFileSync(onDisk('motd.txt'), 'utf8')).toBe('uploaded from afar, then edited');

    await page.goto(`/server/${server.identifier}/files`);
    const download = page.waitForEvent('download');
    await rowAction(page, 'motd.txt', 'Download');
    expect(await readFile(await (await download).path())).toEqual(Buffer.from('uploaded from afar, then edited'));

    await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Backups' }).click();
    await page.getByRole('button', { name: 'Create backup' }).click();
    const create = page.getByRole('dialog', { name: 'Create backup' });
    await create.getByRole('textbox', { name: 'Name' }).fill('Far');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('listitem', { name: 'Far' }).getByRole('button', { name: /^Copy checksum: sha1:/ })).toBeVisible({ timeout: 30_000 });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`second-node-backups-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    fs.writeFileSync(onDisk('motd.txt'), 'changed after the backup');
    await page.getByRole('listitem', { name: 'Far' }).getByRole('button', { name: 'Actions for Far' }).click();
    await page.getByRole('menuitem', { name: 'Restore', exact: true }).click();
    const restore = page.getByRole('dialog', { name: 'Restore backup' });
    await restore.getByRole('textbox', { name: 'Type Far to confirm' }).fill('Far');
    await restore.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByRole('region', { name: 'Backup operations' }).getByText('Restored')).toBeVisible({ timeout: 30_000 });
    expect(fs.readFileSync(onDisk('motd.txt'), 'utf8')).toBe('uploaded from afar, then edited');
  });
});
