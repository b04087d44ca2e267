import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoInjection, TEXT_PAYLOADS, watch, xsrfHeaders } from './support/hostile';

/*
 * Issue 25 §3, §4: an operator adds a machine through the admin area. The node is at 127.0.0.1 on
 * a port nothing listens on, so the panel's health checks stay on loopback.
 */

test('an admin creates a location and a node, gets its config.yml and start command, manages its ports, deletes it, and sees it all in the activity log', async ({
  page,
  makeUser,
  signIn,
}) => {
  test.setTimeout(60_000);
  const admin = makeUser({ admin: true });
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000).toString(36)}`;
  const short = `loc-${tag}`;
  const nodeName = `node-${tag}`;
  await signIn(page, admin);

  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Locations' }).click();
  await page.getByRole('button', { name: 'Create location' }).click();
  const locationDialog = page.getByRole('dialog', { name: 'Create location' });
  await locationDialog.getByLabel('Short code', { exact: true }).fill(short);
  await locationDialog.getByLabel('Description', { exact: true }).fill('End-to-end machines');
  await locationDialog.getByRole('button', { name: 'Create location' }).click();
  await expect(locationDialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search by short code' }).fill(short);
  // The search reaches the URL after a pause; leaving before it would be undone by it.
  await expect(page).toHaveURL(new RegExp(`q=${short}`));
  await expect(page.getByRole('list', { name: 'Locations' }).getByRole('listitem', { name: short })).toContainText('0 nodes');

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Nodes' }).click();
  await page.getByRole('button', { name: 'Create node' }).click();
  const nodeDialog = page.getByRole('dialog', { name: 'Create node' });
  await nodeDialog.getByLabel('Name', { exact: true }).fill(nodeName);
  await nodeDialog.getByLabel('Location', { exact: true }).selectOption({ label: short });
  await nodeDialog.getByLabel('FQDN', { exact: true }).fill('127.0.0.1');
  await nodeDialog.getByLabel('Scheme', { exact: true }).selectOption('http');
  await nodeDialog.getByLabel('Daemon port', { exact: true }).fill('9');
  await nodeDialog.getByLabel('SFTP port', { exact: true }).fill('2099');
  await nodeDialog.getByLabel('Memory (MiB)', { exact: true }).fill('4096');
  await nodeDialog.getByRole('button', { name: 'Create node' }).click();

  await expect(page.getByRole('heading', { level: 2, name: nodeName })).toBeVisible();
  const config = page.getByLabel('config.yml', { exact: true });
  await expect(config).toContainText(/^debug: false\nuuid: [0-9a-f-]{36}\ntoken_id: \S+\ntoken: \S+\napi:\n {2}host: 0\.0\.0\.0\n {2}port: 9\n/);
  await expect(config).toContainText('bind_port: 2099');
  await expect(page.getByLabel('Start command', { exact: true })).toHaveText('npm run -s node -- --config config.yml');
  await expect(page.getByText('Real Wings reads the same file at /etc/pterodactyl/config.yml.')).toBeVisible();

  await page.getByRole('button', { name: 'Add allocations' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add allocations' });
  await addDialog.getByLabel('IP address', { exact: true }).fill('127.0.0.1');
  await addDialog.getByLabel('Ports', { exact: true }).fill('36200-36203, 36210');
  await addDialog.getByRole('button', { name: 'Add' }).click();
  await expect(addDialog).toBeHidden();
  const allocations = page.getByRole('list', { name: 'Allocations' });
  await expect(allocations.getByRole('listitem')).toHaveCount(5);

  await allocations.getByRole('button', { name: 'Set alias of 127.0.0.1:36200' }).click();
  const aliasDialog = page.getByRole('dialog', { name: 'Set alias' });
  await aliasDialog.getByLabel('Alias', { exact: true }).fill('play.example.test');
  await aliasDialog.getByRole('button', { name: 'Save' }).click();
  await expect(allocations.getByRole('listitem', { name: '127.0.0.1:36200' })).toContainText('alias play.example.test');

  await allocations.getByRole('button', { name: 'Remove 127.0.0.1:36210' }).click();
  await page.getByRole('dialog', { name: 'Remove allocation' }).getByRole('button', { name: 'Remove' }).click();
  await expect(allocations.getByRole('listitem')).toHaveCount(4);
  await expect(allocations.getByRole('listitem', { name: '127.0.0.1:36210' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete node' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/admin\/nodes$/);
  await page.getByRole('searchbox', { name: 'Search by name' }).fill(nodeName);
  await expect(page.getByText(`No nodes match “${nodeName}”`)).toBeVisible();

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Activity' }).click();
  const log = page.getByRole('list', { name: 'Activity entries' });
  for (const sentence of [
    `Created the location ${short}`,
    `Created the node ${nodeName}`,
    'Added the allocations 127.0.0.1:36200-36203,36210',
    'Changed the allocation 127.0.0.1:36200',
    'Removed the allocation 127.0.0.1:36210',
    `Deleted the node ${nodeName}`,
  ]) {
    await expect(log.getByText(sentence, { exact: true })).toBeVisible();
  }
});

/** Serious or critical WCAG A/AA findings on the page as it is now (as a11y.spec.ts audits the rest of the panel). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the nodes, node, locations and activity pages pass an axe audit and do not scroll sideways at 360 px', async ({ page, makeUser, signIn }) => {
  // Eight axe audits on two shared cores.
  test.setTimeout(240_000);
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin');
  const headers = { ...(await xsrfHeaders(page)), accept: 'application/json' };
  const tag = Date.now().toString(36);
  const location = await (await page.request.post('/api/application/locations', { headers, data: { short: `a11y-${tag}` } })).json();
  const made = await page.request.post('/api/application/nodes', {
    headers,
    data: {
      name: `a11y-${tag}`,
      location_id: location.attributes.id,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 4096,
      memory_overallocate: 0,
      disk: 10240,
      disk_overallocate: 0,
      daemon_listen: 9,
      daemon_sftp: 2098,
    },
  });
  expect(made.status()).toBe(201);
  const id = String((await made.json()).attributes.id);
  await page.request.post(`/api/application/nodes/${id}/allocations`, { headers, data: { ip: '127.0.0.1', ports: ['36220-36222'] } });

  for (const size of [
    { width: 1280, height: 720 },
    { width: 360, height: 740 },
  ]) {
    await page.setViewportSize(size);
    for (const [url, ready] of [
      ['/admin/nodes', 'Nodes'],
      [`/admin/nodes/${id}`, 'Allocations'],
      ['/admin/locations', 'Locations'],
      ['/admin/activity', 'Activity entries'],
    ] as const) {
      await page.goto(url);
      await expect(page.getByRole('list', { name: ready })).toBeVisible();
      expect(await axeProblems(page), `${url} at ${String(size.width)} px`).toEqual([]);
      // With what sticks out named, for a failure to say where to look.
      const widths = await page.evaluate<{ scroll: number; inner: number; out: string[] }>(
        `({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth, out: [...document.querySelectorAll('main *')].filter((e) => { if (e.getBoundingClientRect().right <= window.innerWidth + 1) return false; for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= window.innerWidth + 1) return false; return true; }).slice(0, 4).map((e) => e.tagName + ' ' + String(e.className).slice(0, 80) + ' "' + (e.textContent || '').slice(0, 50) + '"') })`,
      );
      expect(widths.scroll, `${url} scrolls sideways at ${String(size.width)} px: ${widths.out.join(' | ')}`).toBeLessThanOrEqual(widths.inner);
    }
  }
});

test('location descriptions, allocation aliases and notes, and the activity naming them show hostile strings as text (T-XSS-1..3)', async ({
  page,
  makeUser,
  signIn,
}) => {
  test.setTimeout(60_000);
  const guard = watch(page);
  const admin = makeUser({ admin: true });
  await signIn(page, admin);
  await page.goto('/admin');
  const headers = { ...(await xsrfHeaders(page)), accept: 'application/json' };
  const tag = Date.now().toString(36);
  const [description = '', alias = '', notes = ''] = TEXT_PAYLOADS;
  const location = await (
    await page.request.post('/api/application/locations', { headers, data: { short: `xss-${tag}`, long: description } })
  ).json();
  const made = await page.request.post('/api/application/nodes', {
    headers,
    data: {
      name: `xss-${tag}`,
      location_id: location.attributes.id,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 4096,
      memory_overallocate: 0,
      disk: 10240,
      disk_overallocate: 0,
      daemon_listen: 9,
      daemon_sftp: 2097,
    },
  });
  const id = String((await made.json()).attributes.id);
  const base = `/api/application/nodes/${id}/allocations`;
  await page.request.post(base, { headers, data: { ip: '127.0.0.1', ports: ['36230'] } });
  const listed = await (await page.request.get(base, { headers })).json();
  const allocation = String(listed.data[0].attributes.id);
  expect((await page.request.patch(`${base}/${allocation}`, { headers, data: { ip_alias: alias, notes } })).status()).toBe(200);

  await page.goto(`/admin/locations?q=xss-${tag}`);
  await expect(page.getByRole('listitem', { name: `xss-${tag}` })).toContainText(description);
  await expectNoInjection(page, guard);
  await page.goto(`/admin/nodes/${id}`);
  await expect(page.getByRole('listitem', { name: '127.0.0.1:36230' })).toContainText(`alias ${alias} · ${notes}`);
  await expectNoInjection(page, guard);
  await page.goto('/admin/activity?event=allocation.update');
  await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText('Changed the allocation 127.0.0.1:36230');
  await expectNoInjection(page, guard);
});
