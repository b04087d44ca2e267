import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { test, expect } from './fixtures';
import { e2eDataDir } from './support/cli';
import { mailedLink } from './support/mail';
import { freePort } from '../server/test/node-support';
import { nodeStarted, spawnNodeProcess, type NodeProcess } from '../server/test/node-namespace';

/*
 * An operator's first day (issue 25 §4), from the browser only: a new node (its config.yml copied
 * from the page onto "the machine", where Aerie's node is started with it), a new user (invited by
 * mail), and a server for them on that node. The user sets a password, signs in, sees the server
 * and starts it.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
let node: NodeProcess | undefined;

test.afterAll(async () => {
  await node?.stop();
});

/** The config.yml the node page shows, made to run on this machine: its own data dir, loopback only. */
async function configFromPage(page: Page, dataDir: string): Promise<string> {
  const text = (await page.getByLabel('config.yml', { exact: true }).textContent()) ?? '';
  const config = parse(text) as { api: { host: string }; system: Record<string, unknown> };
  config.api.host = '127.0.0.1';
  for (const [key, name] of [
    ['data', 'volumes'],
    ['archive_directory', 'archives'],
    ['backup_directory', 'backups'],
    ['tmp_directory', 'tmp'],
  ] as const)
    config.system[key] = path.join(dataDir, name);
  return stringify(config);
}

test('an admin creates a node, a user and a server in the browser; the user signs in and starts it', async ({
  page,
  browser,
  makeUser,
  signIn,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const admin = makeUser({ admin: true });
  const suffix = Date.now().toString(36);
  const [daemonPort, sftpPort, gamePort] = [await freePort(), await freePort(), await freePort()];
  await signIn(page, admin);

  // The node, in a location of its own: servers other specs deploy to the panel's location never land on it.
  await page.goto('/admin/locations');
  await page.getByRole('button', { name: 'Create location' }).click();
  const locationDialog = page.getByRole('dialog', { name: 'Create location' });
  const short = `journey-${suffix}`;
  await locationDialog.getByLabel('Short code', { exact: true }).fill(short);
  await locationDialog.getByRole('button', { name: 'Create location' }).click();
  await expect(locationDialog).toBeHidden();
  await page.goto('/admin/nodes');
  await page.getByRole('button', { name: 'Create node' }).click();
  const nodeDialog = page.getByRole('dialog', { name: 'Create node' });
  const nodeName = `journey-${suffix}`;
  await nodeDialog.getByLabel('Name', { exact: true }).fill(nodeName);
  await nodeDialog.getByLabel('Location', { exact: true }).selectOption({ label: short });
  await nodeDialog.getByLabel('FQDN', { exact: true }).fill('127.0.0.1');
  await nodeDialog.getByLabel('Scheme', { exact: true }).selectOption('http');
  await nodeDialog.getByLabel('Daemon port', { exact: true }).fill(String(daemonPort));
  await nodeDialog.getByLabel('SFTP port', { exact: true }).fill(String(sftpPort));
  await nodeDialog.getByLabel('Memory (MiB)', { exact: true }).fill('4096');
  await nodeDialog.getByRole('button', { name: 'Create node' }).click();
  await expect(page.getByRole('heading', { level: 2, name: nodeName })).toBeVisible();
  await page.getByRole('button', { name: 'Add allocations' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add allocations' });
  await addDialog.getByLabel('IP address', { exact: true }).fill('127.0.0.1');
  await addDialog.getByLabel('Ports', { exact: true }).fill(String(gamePort));
  await addDialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('list', { name: 'Allocations' }).getByRole('listitem')).toHaveCount(1);

  // On "the machine": the file from the page, and the start command the page gives.
  await expect(page.getByLabel('Start command', { exact: true })).toHaveText('npm run -s node -- --config config.yml');
  const dataDir = path.join(e2eDataDir(), nodeName);
  const file = path.join(e2eDataDir(), `${nodeName}.yml`);
  fs.writeFileSync(file, await configFromPage(page, dataDir));
  node = await spawnNodeProcess({
    config: file,
    ports: [daemonPort, sftpPort],
    panelPort: Number(new URL(baseURL ?? '').port),
    env: { ...process.env, PANEL_ALLOW_UNLIMITED_SERVERS: 'true' },
    cwd: ROOT,
  });
  await nodeStarted(node, 45_000);
  await page.goto('/admin/nodes');
  await expect(page.getByRole('listitem').filter({ hasText: nodeName })).toContainText('Reachable', { timeout: 30_000 });

  // The user, invited by mail.
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Create user' }).click();
  const userDialog = page.getByRole('dialog', { name: 'Create user' });
  const username = `player${suffix}`;
  const email = `${username}@example.test`;
  await userDialog.getByLabel('E-mail').fill(email);
  await userDialog.getByLabel('Username').fill(username);
  await userDialog.getByLabel('First name').fill('First');
  await userDialog.getByLabel('Last name').fill('Player');
  await userDialog.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('heading', { level: 2, name: username })).toBeVisible();

  // The server, on the new node, for them.
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Servers' }).click();
  await page.getByRole('link', { name: 'Create server' }).click();
  const serverName = `Journey ${suffix}`;
  await page.getByLabel('Name', { exact: true }).fill(serverName);
  await page.getByRole('searchbox', { name: 'Find the owner by e-mail' }).fill(email);
  const ownerSelect = page.getByLabel('Owner', { exact: true });
  await expect(ownerSelect.locator('option', { hasText: email })).toHaveCount(1);
  await ownerSelect.selectOption({ label: `${email} (${username})` });
  await page.getByLabel('Node', { exact: true }).selectOption({ label: nodeName });
  await page.getByLabel('Primary port', { exact: true }).selectOption({ label: `127.0.0.1:${gamePort}` });
  const eggSelect = page.getByLabel('Egg', { exact: true });
  await eggSelect.selectOption({ label: (await eggSelect.locator('option', { hasText: 'Demo game' }).textContent()) ?? '' });
  await page.getByRole('button', { name: 'Create server' }).click();
  await expect(page.getByRole('heading', { level: 2, name: serverName })).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: test.info().outputPath('journey-admin-server-1280.png'), fullPage: true });

  // The user: a password from the invitation, then their server, started.
  const context = await browser.newContext();
  const player = await context.newPage();
  const password = 'the player chose this password';
  await player.goto((await mailedLink(email)).href);
  await player.getByLabel('New password', { exact: true }).fill(password);
  await player.getByLabel('Confirm new password').fill(password);
  await player.getByRole('button', { name: 'Set password' }).click();
  await expect(player).toHaveURL(/\/auth\/login$/);
  await signIn(player, { email, password });
  await player.goto('/');
  await player.getByRole('list', { name: 'Servers' }).getByRole('link', { name: serverName }).click();
  const status = player.getByRole('status', { name: 'Server status' });
  await expect(status).toHaveText('Offline', { timeout: 60_000 });
  await player.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(player.getByRole('region', { name: 'Console' }).locator('.xterm-rows')).toContainText('Done (', { timeout: 30_000 });
  await expect(status).toHaveText('Running');
  // Really on the new node: its volume is in that node's data dir.
  const identifier = /\/server\/([0-9a-f]{8})/.exec(player.url())?.[1] ?? 'none';
  expect(fs.readdirSync(path.join(dataDir, 'volumes')).filter((name) => name.startsWith(identifier))).toHaveLength(1);
  await player.screenshot({ path: test.info().outputPath('journey-player-console-1280.png'), fullPage: true });
  await player.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Stop' }).click();
  await expect(status).toHaveText('Offline', { timeout: 30_000 });
  await context.close();
});
