import { test as base, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { row } from './files-support';
import { expectNoInjection, LONG_PAYLOAD, NAME_PAYLOADS, TEXT_PAYLOADS, watch, xsrfHeaders, type Guard } from './support/hostile';

/*
 * Stored XSS and file serving. Hostile strings go into every
 * user-controlled string the SPA renders today — server name and description, file and folder
 * names (any a tenant process could write; seeded through the files API), activity metadata from real API
 * calls, username and email — and every page showing them must keep them as text: no dialog, no
 * CSP refusal, no element made from a payload, the raw string on screen.
 */

// Every test watches its page; a dialog or a CSP refusal at any moment fails the test.
const test = base.extend<{ guard: Guard }>({
  guard: [
    async ({ page }, use) => {
      const guard = watch(page);
      await use(guard);
      expect(guard.dialogs, 'a JS dialog fired').toEqual([]);
      expect(guard.cspViolations, 'the CSP blocked an injected script').toEqual([]);
    },
    { auto: true },
  ],
});

const enc = encodeURIComponent;

// attacks T-XSS-1
test('the HTML page carries a CSP whose scripts exclude unsafe-inline', async ({ page }) => {
  for (const url of ['/', '/server/abcd1234/files/x']) {
    const res = await page.request.get(url, { headers: { Accept: 'text/html' } });
    expect(res.headers()['content-type']).toMatch(/^text\/html/);
    const csp = res.headers()['content-security-policy'] ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name = '', ...values]) => [name.toLowerCase(), values]),
    );
    const scripts = directives.get('script-src') ?? directives.get('default-src');
    expect(scripts, `${url}: CSP "${csp}" has no script-src or default-src`).toBeDefined();
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts).not.toContain('*');
  }
});

// attacks T-XSS-1
test('server names and descriptions show literally on the server list', async ({ page, guard, cli, makeUser, signIn }) => {
  const owner = makeUser();
  const pairs: [string, string][] = [];
  for (let i = 0; i < TEXT_PAYLOADS.length; i += 2) pairs.push([TEXT_PAYLOADS[i] ?? '', TEXT_PAYLOADS[i + 1] ?? '']);
  for (const [name, description] of pairs) cli(['server:create', '--owner', owner.email, '--name', name, '--description', description]);
  await signIn(page, owner);
  await page.goto('/');
  const list = page.getByRole('list', { name: 'Servers' });
  for (const [name, description] of pairs) {
    await expect(list.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(list.getByText(description, { exact: true })).toBeVisible();
  }
  await expectNoInjection(page, guard);
});

// attacks T-XSS-1
test('the server overview and header show a hostile name and a 10,000-character description literally', async ({
  page,
  guard,
  cli,
  makeUser,
  signIn,
}) => {
  const owner = makeUser();
  const name = '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>';
  const server = cli<{ identifier: string }>(['server:create', '--owner', owner.email, '--name', name, '--description', LONG_PAYLOAD]);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/overview`);
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  await expect(page.getByText(LONG_PAYLOAD, { exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`Overview · ${name} · Aerie`);
  await expectNoInjection(page, guard);
});

// attacks T-XSS-3
test('hostile file and folder names show literally in the file manager', async ({ page, guard, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  // Files and folders alternate, as the tenant process could make either.
  await signIn(page, owner);
  await filesOf(server, page).seed(Object.fromEntries(NAME_PAYLOADS.map((n, i) => [i % 2 ? `${n}/` : n, 'x'])));
  await page.goto(`/server/${server.identifier}/files`);
  for (const name of NAME_PAYLOADS) {
    await expect(row(page, name)).toBeVisible();
    await expect(row(page, name).getByText(name, { exact: true })).toBeVisible();
  }
  await expectNoInjection(page, guard);
});

// attacks T-XSS-3
test('breadcrumbs inside hostile folders show the names literally', async ({ page, guard, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const outer = '"><svg onload=alert(1)>';
  const inner = "{{constructor.constructor('alert(1)')()}}";
  await signIn(page, owner);
  await filesOf(server, page).seed({ [`${outer}/${inner}/<img src=x onerror=alert(1)>.txt`]: 'x' });
  await page.goto(`/server/${server.identifier}/files/${enc(outer)}/${enc(inner)}`);
  await expect(row(page, '<img src=x onerror=alert(1)>.txt')).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Folder path' });
  await expect(crumbs.getByRole('link', { name: outer, exact: true })).toBeVisible();
  await expect(crumbs.getByText(inner, { exact: true })).toHaveAttribute('aria-current', 'page');
  await expectNoInjection(page, guard);
});

// attacks T-XSS-3
test('the row menu, rename and delete dialogs show a hostile name literally', async ({ page, guard, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const name = '<img src=x onerror=alert(1)>.txt';
  const other = '<iframe srcdoc="<img src=x onerror=alert(1)>">';
  await signIn(page, owner);
  await filesOf(server, page).seed({ [name]: 'x', [other]: 'y' });
  await page.goto(`/server/${server.identifier}/files`);

  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoInjection(page, guard);
  await page.getByRole('menuitem', { name: 'Rename or move', exact: true }).click();
  const rename = page.getByRole('dialog', { name: `Rename “${name}”`, exact: true });
  await expect(rename.getByLabel('New name or path')).toHaveValue(name);
  await expectNoInjection(page, guard);
  await rename.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  const single = page.getByRole('dialog', { name: `Delete “${name}”?`, exact: true });
  await expect(single).toBeVisible();
  await expectNoInjection(page, guard);
  await single.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
  await page.getByRole('checkbox', { name: `Select ${other}`, exact: true }).check();
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Delete' }).click();
  const many = page.getByRole('dialog', { name: 'Delete 2 items?' });
  await expect(many.getByRole('listitem')).toHaveText([name, other].sort());
  await expectNoInjection(page, guard);
});

// attacks T-XSS-3
test('the editor shows a hostile file name, folder and contents literally', async ({ page, guard, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const folder = '"><svg onload=alert(1)>';
  const name = '<img src=x onerror=alert(1)>.txt';
  const lines = ['</textarea><script>alert(1)</script>', '<img src=x onerror=alert(1)>', '{{7*7}} ${alert(1)}'];
  await signIn(page, owner);
  await filesOf(server, page).seed({ [`${folder}/${name}`]: lines.join('\n') });
  await page.goto(`/server/${server.identifier}/file/${enc(folder)}/${enc(name)}`);
  const editor = page.getByRole('textbox', { name: `Contents of ${name}`, exact: true });
  for (const line of lines) await expect(editor).toContainText(line);
  await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `/${folder}`, exact: true })).toBeVisible();
  await expectNoInjection(page, guard);
});

// attacks T-XSS-3
test('activity from real API calls shows hostile names and the actor literally', async ({ page, guard, cli, makeUser, makeServer, signIn }) => {
  const plain = makeUser();
  const username = `<img src=x onerror=alert(1)>${plain.username}`;
  const password = 'pw-hostile-actor-1';
  const actor = cli<{ email: string }>(['user:create', '--email', `x${plain.email}`, '--username', username, '--password', password]);
  const server = makeServer(actor.email);
  await signIn(page, { email: actor.email, password });
  const headers = await xsrfHeaders(page);
  const outer = '"><svg onload=alert(1)>';
  const inner = "{{constructor.constructor('alert(1)')()}} :name";
  const file = '/<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>.txt';
  const api = `/api/client/servers/${server.uuid}/files`;
  expect((await page.request.post(`${api}/create-folder`, { headers, data: { root: '/', name: outer } })).status()).toBe(204);
  expect((await page.request.post(`${api}/create-folder`, { headers, data: { root: `/${outer}`, name: inner } })).status()).toBe(204);
  expect((await page.request.post(`${api}/write?file=${enc(file)}`, { headers, data: '<script>alert(1)</script>' })).status()).toBe(204);

  await page.goto(`/server/${server.identifier}/activity`);
  const entries = page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0).getByText(`Wrote new content to ${file}`, { exact: true })).toBeVisible();
  await expect(entries.nth(1).getByText(`Created directory /${outer}/${inner}`, { exact: true })).toBeVisible();
  await expect(entries.nth(2).getByText(`Created directory /${outer}`, { exact: true })).toBeVisible();
  for (let i = 0; i < 3; i += 1) await expect(entries.nth(i).getByText(username, { exact: true })).toBeVisible();
  for (const details of await page.getByRole('button', { name: 'Details' }).all()) await details.click();
  const values = page.getByRole('definition');
  for (const value of [file, inner, `/${outer}/`, outer]) await expect(values.getByText(value, { exact: true }).first()).toBeVisible();
  await expectNoInjection(page, guard);
});

// attacks T-XSS-1
test('the account menu shows a hostile username and email literally', async ({ page, guard, cli, makeUser, signIn }) => {
  const tag = makeUser().username;
  const username = `"><svg onload=alert(1)>${tag}`;
  const email = `"<svg/onload=alert(1)>${tag}"@example.com`;
  const password = 'pw-hostile-account-1';
  cli(['user:create', '--email', email, '--username', username, '--password', password]);
  await signIn(page, { email, password });
  await page.goto('/');
  await page.getByRole('button', { name: username, exact: true }).click();
  await expect(page.getByRole('menu').getByText(email, { exact: true })).toBeVisible();
  await expectNoInjection(page, guard);
});

// attacks T-XSS-5
test('HTML and SVG files download as attachments, never render on the panel origin', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await filesOf(server, page).seed({
    'x.html': '<!doctype html><script>alert(document.domain)</script>',
    'x.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
  });
  for (const file of ['x.html', 'x.svg']) {
    const res = await page.request.get(await downloadLink(page, server.uuid, file));
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h['content-disposition']).toMatch(/^attachment;/);
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['content-type']).toMatch(/^application\/octet-stream/);

    // Opened in the tab, the browser downloads it instead of showing it.
    const download = page.waitForEvent('download');
    // A link works once, so the tab gets a fresh one.
    await page.goto(await downloadLink(page, server.uuid, file)).catch(() => undefined);
    expect((await download).suggestedFilename()).toBe(file);
  }
});

// attacks T-XSS-5
test('a file name carrying CR/LF cannot inject a download header', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const name = 'a";\r\nX-Injected: 1.txt';
  await signIn(page, owner);
  await filesOf(server, page).seed({ [name]: 'payload' });
  const res = await page.request.get(await downloadLink(page, server.uuid, name));
  expect(res.status()).toBe(200);
  const h = res.headers();
  expect(h['x-injected']).toBeUndefined();
  expect(h['content-disposition']).not.toMatch(/[\r\n]/);
  expect(h['content-disposition']).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''a%22%3B%0D%0AX-Injected%3A%201\.txt$/);
  expect(await res.text()).toBe('payload');
});

/** The panel's signed link to download a file from the server's node (the SPA asks the same way). */
async function downloadLink(page: Page, server: string, file: string): Promise<string> {
  const res = await page.request.get(`/api/client/servers/${server}/files/download?file=${enc(`/${file}`)}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { object: string; attributes: { url: string } };
  expect(body.object).toBe('signed_url');
  return body.attributes.url;
}
