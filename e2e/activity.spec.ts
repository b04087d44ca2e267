import fs from 'node:fs';
import { test, expect, type E2eServer, type Fixtures } from './fixtures';
import type { ActivityEvent } from '../src/contract';

/*
 * The server activity page. Most tests need entries of many kinds, times and actors, so they are
 * seeded with the admin CLI's activity:import (which keeps each entry's time and actor); the last
 * test checks that a real action through the API shows up too.
 */

interface Seed {
  event: ActivityEvent;
  minutesAgo: number;
  /** Email of the user who acted; absent for the system. */
  actor?: string;
  properties?: Record<string, unknown>;
}

function seedActivity(cli: Fixtures['cli'], server: E2eServer, seeds: Seed[]): void {
  const file = test.info().outputPath(`activity-${server.identifier}.json`);
  const now = Date.now();
  const entries = seeds.map((e) => ({
    event: e.event,
    timestamp: new Date(now - e.minutesAgo * 60_000).toISOString(),
    actor: e.actor ?? null,
    ip: '203.0.113.7',
    properties: e.properties ?? {},
  }));
  fs.writeFileSync(file, JSON.stringify(entries));
  cli(['activity:import', '--server', server.identifier, '--file', file]);
}

const entries = (page: import('@playwright/test').Page) => page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');

test('entries show the event, who did it and when', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  seedActivity(cli, server, [
    { event: 'server:power.start', minutesAgo: 30, actor: owner.email },
    { event: 'server:backup.complete', minutesAgo: 10, properties: { name: 'Nightly' } },
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

test('filtering by event narrows the list', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  seedActivity(cli, server, [
    { event: 'server:power.start', minutesAgo: 30, actor: owner.email },
    { event: 'server:console.command', minutesAgo: 20, actor: owner.email, properties: { command: 'say hi' } },
    { event: 'server:power.stop', minutesAgo: 10, actor: owner.email },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page)).toHaveCount(3);
  await page.getByRole('searchbox', { name: 'Filter by event' }).fill('console');
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first().getByText('Executed "say hi" on the server')).toBeVisible();
  await expect(page).toHaveURL(/[?&]event=console/);
});

test('the oldest-first toggle reverses the order', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  seedActivity(cli, server, [
    { event: 'server:power.start', minutesAgo: 30, actor: owner.email },
    { event: 'server:power.stop', minutesAgo: 10, actor: owner.email },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page).first().getByText('server:power.stop')).toBeVisible();
  await page.getByRole('button', { name: 'Oldest first' }).click();
  await expect(page.getByRole('button', { name: 'Oldest first' })).toHaveAttribute('aria-pressed', 'true');
  await expect(entries(page).first().getByText('server:power.start')).toBeVisible();
});

test('details expand to show properties, hostile names as plain text', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const hostile = '<img src=x onerror=alert(document.domain)>.txt';
  page.on('dialog', () => {
    throw new Error('a property value ran as HTML');
  });
  seedActivity(cli, server, [
    { event: 'server:file.delete', minutesAgo: 5, actor: owner.email, properties: { directory: '/', files: [hostile, 'b.txt'] } },
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
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(page.getByRole('heading', { name: 'Activity unavailable' })).toBeVisible();
  await expect(page.getByText('This page cannot be shown while the server is suspended.')).toBeVisible();
  // The page asks for nothing the panel must refuse (409).
  expect(refused).toEqual([]);
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

test('a file uploaded through its signed link appears on the page, reported by the node', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/files`);
  await page.getByLabel('Files to upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await expect(page.getByRole('row', { name: 'notes.txt', exact: true })).toBeVisible();
  await page.goto(`/server/${server.identifier}/activity`);
  const first = entries(page).first();
  await expect(first.getByText('Uploaded /notes.txt')).toBeVisible();
  await expect(first.getByText(owner.username)).toBeVisible();
});

test('notes set for the first time read as a sentence', async ({ page, cli, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  seedActivity(cli, server, [
    {
      event: 'server:allocation.notes',
      minutesAgo: 5,
      actor: owner.email,
      properties: { allocation: '127.0.0.1:25600', old: null, new: 'Dynmap web map' },
    },
  ]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page).first().getByText('Set the notes for 127.0.0.1:25600 to "Dynmap web map"')).toBeVisible();
});

test('a move into another folder reads as plain paths', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' };
  const files = `/api/client/servers/${server.uuid}/files`;
  for (const name of ['worlds', 'backups'])
    expect((await page.request.post(`${files}/create-folder`, { headers, data: { root: '/', name } })).status()).toBe(204);
  expect((await page.request.post(`${files}/write?file=/worlds/w.txt`, { headers, data: 'w' })).status()).toBe(204);
  const moved = await page.request.put(`${files}/rename`, {
    headers,
    data: { root: '/worlds', files: [{ from: 'w.txt', to: '../backups//w.txt' }] },
  });
  expect(moved.status()).toBe(204);
  await page.goto(`/server/${server.identifier}/activity`);
  await expect(entries(page).first().getByText('Renamed /worlds/w.txt to /backups/w.txt')).toBeVisible();
});
