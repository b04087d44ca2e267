import path from 'node:path';
import Database from 'better-sqlite3';
import { test, expect } from './fixtures';
import { e2eDataDir } from './support/cli';

/*
 * A server whose node does not answer (issue 24 §2): its pages say so and never wait forever,
 * while the dashboard and the owner's other servers keep working. The node is attached through the
 * CLI at a loopback port nothing listens on; the server is moved onto it in the database, as a
 * finished transfer would (a node that does not answer cannot create one).
 */

const BANNER = /This server's node \(dead[a-z0-9]+\) is not answering; files, console and power are unavailable until it is back\./;

function moveToNode(serverUuid: string, nodeId: number): void {
  const db = new Database(path.join(e2eDataDir(), 'panel.sqlite'));
  try {
    db.prepare('UPDATE servers SET node_id = ? WHERE uuid = ?').run(nodeId, serverUuid);
  } finally {
    db.close();
  }
}

test('a server on a node that does not answer says so on its console and files pages; everything else works', async ({
  page,
  cli,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const dead = makeServer(owner.email, 'Stranded server');
  const live = makeServer(owner.email, 'Healthy server');
  const tag = `dead${Date.now().toString(36)}`;
  const node = cli<{ id: number }>(['node:create', '--name', tag, '--fqdn', '127.0.0.1', '--scheme', 'http', '--daemon-port', '9']);
  moveToNode(dead.uuid, node.id);
  await signIn(page, owner);

  await page.goto(`/server/${dead.identifier}`);
  await expect(page.getByRole('alert')).toHaveText(BANNER);
  await expect(page.getByText('Console unavailable')).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`node-offline-console-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Files' }).click();
  await expect(page.getByText('Files unavailable')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(BANNER);
  await page.screenshot({ path: test.info().outputPath('node-offline-files-1280.png'), fullPage: true });

  // Pages kept in the panel's database still open.
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByText('Name and description').first()).toBeVisible();

  await page.goto('/');
  const list = page.getByRole('list', { name: 'Servers' });
  await expect(list.getByRole('link', { name: /Stranded server/ })).toBeVisible();
  await expect(list.getByRole('link', { name: /Healthy server/ })).toBeVisible();
  // The list says the node does not answer instead of a blank status; the other server is unaffected.
  await expect(list.getByRole('listitem').filter({ hasText: 'Stranded server' })).toContainText('Node unreachable');
  await expect(list.getByRole('listitem').filter({ hasText: 'Healthy server' })).toContainText('Offline');
  await expect(list.getByRole('listitem').filter({ hasText: 'Healthy server' })).not.toContainText('Node unreachable');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`node-offline-dashboard-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/server/${live.identifier}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Healthy server' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('root admins see what the panel last heard from the node', async ({ page, cli, makeUser, makeServer, signIn }) => {
  test.setTimeout(90_000);
  const owner = makeUser();
  const admin = makeUser({ admin: true });
  const dead = makeServer(owner.email, 'Watched server');
  const node = cli<{ id: number }>([
    'node:create',
    '--name',
    `dead${Date.now().toString(36)}a`,
    '--fqdn',
    '127.0.0.1',
    '--scheme',
    'http',
    '--daemon-port',
    '9',
  ]);
  moveToNode(dead.uuid, node.id);
  await signIn(page, admin);
  // The panel asks every 30 s: the line shows from the first round after the node was attached.
  await expect(async () => {
    await page.goto(`/server/${dead.identifier}/settings`);
    await expect(page.getByLabel('Node health')).toContainText('Node not answering', { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await expect(page.getByLabel('Node health')).toContainText('last seen never');
  await page.screenshot({ path: test.info().outputPath('node-offline-admin-1280.png'), fullPage: true });
});
