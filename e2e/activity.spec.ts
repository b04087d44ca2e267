import { test, expect } from './fixtures';
import type { ActivityEvent } from '../src/contract';
import { e2eDataDir } from './support/cli';
import { databaseFile, openDatabase } from '../server/db';
import { logActivity } from '../server/services/activity';

/*
 * The server activity page. Most tests need entries of many kinds, times and actors, so a fixture
 * writes them with the panel's own activity service into the running panel's data dir; the last
 * test checks that a real action through the API shows up too.
 */

interface Seed {
  event: ActivityEvent;
  minutesAgo: number;
  actorId?: number | null;
  properties?: Record<string, unknown>;
}

async function seedActivity(serverId: number, entries: Seed[]): Promise<void> {
  const db = openDatabase(databaseFile(e2eDataDir()));
  try {
    for (const e of entries) {
      await logActivity(db, {
        event: e.event,
        ip: '203.0.113.7',
        actorId: e.actorId ?? null,
        properties: e.properties ?? {},
        subjects: [{ type: 'server', id: serverId }],
        timestamp: new Date(Date.now() - e.minutesAgo * 60_000),
      });
    }
  } finally {
    await db.destroy();
  }
}

const entries = (page: import('@playwright/test').Page) => page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');

test('entries show the event, who did it and when', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await seedActivity(server.id, [
    { event: 'server:power.start', minutesAgo: 30, actorId: owner.id },
    { event: 'server:backup.complete', minutesAgo: 10, actorId: null, properties: { name: 'Nightly' } },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  const first = entries(page).first();
  await expect(first.getByRole('button', { name: 'Filter by server:backup.complete' })).toBeVisible();
  await expect(first.getByText('System')).toBeVisible();
  const second = entries(page).nth(1);
  await expect(second.getByText('Started the server')).toBeVisible();
  await expect(second.getByText(owner.username)).toBeVisible();
  await expect(second.getByText('30 minutes ago')).toBeVisible();
});

test('filtering by event narrows the list', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await seedActivity(server.id, [
    { event: 'server:power.start', minutesAgo: 30, actorId: owner.id },
    { event: 'server:console.command', minutesAgo: 20, actorId: owner.id, properties: { command: 'say hi' } },
    { event: 'server:power.stop', minutesAgo: 10, actorId: owner.id },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page)).toHaveCount(3);
  await page.getByRole('searchbox', { name: 'Filter by event' }).fill('console');
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first().getByText('Executed "say hi" on the server')).toBeVisible();
  await expect(page).toHaveURL(/[?&]event=console/);
});

test('the oldest-first toggle reverses the order', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await seedActivity(server.id, [
    { event: 'server:power.start', minutesAgo: 30, actorId: owner.id },
    { event: 'server:power.stop', minutesAgo: 10, actorId: owner.id },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page).first().getByText('server:power.stop')).toBeVisible();
  await page.getByRole('button', { name: 'Oldest first' }).click();
  await expect(page.getByRole('button', { name: 'Oldest first' })).toHaveAttribute('aria-pressed', 'true');
  await expect(entries(page).first().getByText('server:power.start')).toBeVisible();
});

test('details expand to show properties, hostile names as plain text', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const hostile = '<img src=x onerror=alert(document.domain)>.txt';
  page.on('dialog', () => {
    throw new Error('a property value ran as HTML');
  });
  await seedActivity(server.id, [
    { event: 'server:file.delete', minutesAgo: 5, actorId: owner.id, properties: { directory: '/', files: [hostile, 'b.txt'] } },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  const details = entries(page).first().getByRole('button', { name: 'Details' });
  await expect(details).toHaveAttribute('aria-expanded', 'false');
  await details.click();
  await expect(details).toHaveAttribute('aria-expanded', 'true');
  const properties = entries(page).first().getByRole('definition');
  await expect(properties.filter({ hasText: hostile })).toHaveCount(1);
  await expect(properties.filter({ hasText: '2' }).first()).toBeVisible();
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
});

test('a suspended server’s activity explains why it is unavailable', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  cli(['server:status', '--server', server.identifier, '--status', 'suspended']);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByRole('heading', { name: 'Server unavailable right now' })).toBeVisible();
  await expect(page.getByText(/suspended/).first()).toBeVisible();
});

test('an action taken through the API appears on the page', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.post(`/api/client/servers/${server.uuid}/files/create-folder`, {
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' },
    data: { root: '/', name: 'maps' },
  });
  expect(res.status()).toBe(204);
  await page.goto(`/server/${server.identifier}/activity`);
  const first = entries(page).first();
  await expect(first.getByRole('button', { name: 'Filter by server:file.create-directory' })).toBeVisible();
  await expect(first.getByText(owner.username)).toBeVisible();
});
