import AxeBuilder from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from '@playwright/test';
import { test, expect, type Fixtures } from './fixtures';
import { row } from './files-support';

/*
 * Accessibility, made provable: every page (and the open dialog and menus) passes an axe audit
 * for WCAG 2.0/2.1 A and AA without serious or critical violations, on a desktop window and at
 * 360 px wide; at 360 px nothing scrolls sideways; Tab order, the skip link and Enter on a server
 * work; and a focused control shows where focus is. Every page is audited in the light theme too
 * (issue 26 §2), at the desktop width only, to keep the run short: a new account follows the
 * system's theme, so the browser's turning light switches the page as it is, dialogs open.
 */

const PHONE = { width: 360, height: 740 } as const;
const DESKTOP = { width: 1280, height: 720 } as const;

/** The serious and critical WCAG A/AA violations on the page as it is now, formatted to be fixed. */
async function auditProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Nothing is excluded: the editor page passes with CodeMirror's DOM included. Should a
    // CodeMirror internal ever trip a rule we cannot fix (e.g. scrollable-region-focusable on its
    // scroller), exclude that element alone here, `.exclude('.cm-editor')`, with the reason.
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes
        .map((n) => `    - ${n.target.join(' ')}\n      ${n.html.slice(0, 160)}\n      ${(n.failureSummary ?? '').replace(/\n\s*/g, '\n      ')}`)
        .join('\n');
      return `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    });
}

async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const problems = await auditProblems(page);
  expect(problems.length, `axe found serious/critical violations on ${what}:\n${problems.join('\n')}`).toBe(0);
}

async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  // A string, since e2e code is type-checked without the DOM library.
  const widths = await page.evaluate<{ scroll: number; inner: number; culprits: string[] }>(`(() => {
    const inner = window.innerWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > inner + 0.5 && getComputedStyle(el).position !== 'fixed')
      .slice(0, 8)
      .map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 4).join('.') : '') + ' → right ' + Math.round(el.getBoundingClientRect().right));
    return { scroll: document.documentElement.scrollWidth, inner, culprits };
  })()`);
  expect(
    widths.scroll,
    `${what} scrolls sideways at ${widths.inner} px (scrollWidth ${widths.scroll}); wider elements:\n${widths.culprits.join('\n')}`,
  ).toBeLessThanOrEqual(widths.inner);
}

/**
 * Whether the focused element shows its focus: an outline (its own, or its ::before/::after's, as
 * on the server rows' stretched links) or a box-shadow ring that it does not have unfocused. The
 * ring is compared with the blurred state, since Tailwind's resting `ring-1` borders are box-shadows
 * too. Transitions are switched off first (see `noTransitions`), so the styles read are final.
 */
async function focusIndicator(page: Page): Promise<{ element: string; position: number; visible: boolean }> {
  return page.evaluate<{ element: string; position: number; visible: boolean }>(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return { element: 'body', position: -1, visible: false };
    const outlined = (s) => s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && !/rgba\\(.*, 0\\)$/.test(s.outlineColor);
    const styles = () => [getComputedStyle(el), getComputedStyle(el, '::before'), getComputedStyle(el, '::after')].map((s) => ({ outlined: outlined(s), shadow: s.boxShadow }));
    const focused = styles();
    el.blur();
    const blurred = styles();
    el.focus({ preventScroll: true });
    const visible = focused.some((s, i) => s.outlined || (s.shadow !== 'none' && s.shadow !== blurred[i].shadow));
    const name = el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 40) || el.getAttribute('placeholder') || el.getAttribute('name') || '';
    const position = Array.prototype.indexOf.call(document.getElementsByTagName('*'), el);
    return { element: el.tagName.toLowerCase() + (el.getAttribute('role') ? '[role=' + el.getAttribute('role') + ']' : '') + ' "' + name + '"', position, visible };
  })()`);
}

/** Turns CSS transitions off, so computed styles are the end state at once. */
async function noTransitions(page: Page): Promise<void> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
}

type Setup = (page: Page, fixtures: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>) => Promise<void>;

/** Signs a new owner in and gives them one server, with files when asked. */
async function ownerWithServer(
  page: Page,
  { makeUser, makeServer, signIn, filesOf }: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>,
  files?: Record<string, string>,
) {
  const owner = makeUser();
  const server = makeServer(owner.email, 'Accessible world');
  await signIn(page, owner);
  if (files) await filesOf(server, page).seed(files);
  return { owner, server };
}

/** Signs a new user in, for the account pages (no server needed). */
async function signedInUser(page: Page, { makeUser, signIn }: Pick<Fixtures, 'makeUser' | 'signIn'>) {
  const user = makeUser();
  await signIn(page, user);
  return user;
}

const FILES = {
  'plugins/Essentials/config.yml': 'a: 1',
  'world/level.dat': 'LEVEL',
  'server.properties': 'motd=A Minecraft Server\nmax-players=20\n',
  'eula.txt': 'eula=true',
  'a-rather-long-file-name-that-might-not-fit-on-a-narrow-phone-screen.log': 'x'.repeat(2048),
};

async function openFileManager(page: Page, fixtures: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>) {
  const { server } = await ownerWithServer(page, fixtures, FILES);
  await page.goto(`/server/${server.identifier}/files`);
  await expect(row(page, 'server.properties')).toBeVisible();
  return server;
}

/** The backups page with one finished backup, made through the page. */
async function openBackups(page: Page, fixtures: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>) {
  const { server } = await ownerWithServer(page, fixtures, { 'server.properties': 'motd=Backed up\n' });
  await page.goto(`/server/${server.identifier}/backups`);
  await page.getByRole('button', { name: 'Create backup' }).click();
  await page.getByRole('dialog', { name: 'Create backup' }).getByRole('button', { name: 'Create' }).click();
  // A finished row (size, checksum, menu) and the tray's result are audited together.
  await expect(page.getByRole('region', { name: 'Backup operations' }).getByText('Completed')).toBeVisible({ timeout: 30_000 });
}

/** The databases page with one database made through the page, its details open and its password shown. */
async function openDatabases(page: Page, fixtures: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>) {
  const { server } = await ownerWithServer(page, fixtures);
  await page.goto(`/server/${server.identifier}/databases`);
  await page.getByRole('button', { name: 'New database' }).click();
  const dialog = page.getByRole('dialog', { name: 'New database' });
  await dialog.getByLabel('Database name').fill('a_rather_long_database_name_for_a_phone_screen');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByRole('button', { name: 'Hide password' })).toBeVisible();
}

const PAGES: Record<string, Setup> = {
  'sign-in': async (page) => {
    await page.goto('/auth/login');
    await expect(page.getByLabel('Username or email')).toBeVisible();
  },
  'sign-in with errors': async (page) => {
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Username or email')).toHaveAttribute('aria-invalid', 'true');
  },
  'two-factor checkpoint': async (page, { makeUser }) => {
    const user = makeUser({ totp: true });
    await page.goto('/auth/login');
    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Authentication code')).toBeFocused();
  },
  'server list': async (page, fixtures) => {
    const { owner } = await ownerWithServer(page, fixtures);
    fixtures.makeServer(owner.email, 'A second server with a long name to see how it wraps on phones');
    await page.goto('/');
    await expect(page.getByRole('list', { name: 'Servers' }).getByRole('listitem')).toHaveCount(2);
  },
  console: async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}`);
    await expect(page.getByRole('textbox', { name: 'Console command' })).toBeVisible();
  },
  'server overview': async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/overview`);
    await expect(page.getByRole('region', { name: 'SFTP' })).toBeVisible();
  },
  startup: async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/startup`);
    // A refused value, so the field's error state is audited too.
    await page.getByRole('textbox', { name: 'Max players' }).fill('500');
    await expect(page.getByRole('group', { name: 'Max players' }).getByRole('alert')).toBeVisible();
  },
  network: async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/network`);
    await page.getByRole('button', { name: 'Add allocation' }).click();
    await expect(page.getByRole('list', { name: 'Allocations' }).getByRole('listitem')).toHaveCount(2);
  },
  backups: (page, fixtures) => openBackups(page, fixtures),
  databases: (page, fixtures) => openDatabases(page, fixtures),
  'New database dialog': async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/databases`);
    await expect(page.getByText('No databases yet')).toBeVisible();
    await page.getByRole('button', { name: 'New database' }).click();
    // A refused name, so the field's error state is audited too.
    const dialog = page.getByRole('dialog', { name: 'New database' });
    await dialog.getByLabel('Database name').fill('no spaces');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByLabel('Database name')).toHaveAttribute('aria-invalid', 'true');
  },
  'Restore backup dialog': async (page, fixtures) => {
    await openBackups(page, fixtures);
    await page
      .getByRole('list', { name: 'Backups' })
      .getByRole('button', { name: /^Actions for / })
      .click();
    await page.getByRole('menuitem', { name: 'Restore' }).click();
    await expect(page.getByRole('dialog', { name: 'Restore backup' })).toContainText('Files not in the backup stay as they are');
  },
  'server settings': async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/settings`);
    await expect(page.getByLabel('Server name')).toBeVisible();
  },
  account: async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account');
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(page.getByLabel('New e-mail address')).toHaveAttribute('aria-invalid', 'true');
  },
  'account password': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/password');
    await expect(page.getByLabel('Confirm new password')).toBeVisible();
  },
  'account two-factor setup': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/two-factor');
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('img', { name: /QR code/ }).locator('svg')).toBeVisible();
  },
  'Recovery tokens dialog': async (page, fixtures) => {
    const owner = await signedInUser(page, fixtures);
    await page.goto('/account/two-factor');
    await page.getByRole('button', { name: 'Enable' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate());
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByRole('dialog', { name: 'Two-factor authentication is on' })).toBeVisible();
  },
  'account API keys': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/api-keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Description').fill('Audit');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByTestId('api-key-secret')).toBeVisible();
  },
  'account SSH keys': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/ssh-keys');
    await expect(page.getByText('No SSH keys yet')).toBeVisible();
  },
  'account appearance': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/appearance');
    await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  },
  'account activity': async (page, fixtures) => {
    await signedInUser(page, fixtures);
    await page.goto('/account/activity');
    await expect(page.getByLabel('Filter by event')).toBeVisible();
  },
  'Reinstall dialog': async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    await page.goto(`/server/${server.identifier}/settings`);
    await page.getByRole('button', { name: 'Reinstall server' }).click();
    await expect(page.getByRole('dialog')).toContainText('Other files stay');
  },
  activity: async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures);
    const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    for (const name of ['maps', 'backups', 'plugins']) {
      const res = await page.request.post(`/api/client/servers/${server.uuid}/files/create-folder`, {
        headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), Accept: 'application/json' },
        data: { root: '/', name },
      });
      expect(res.status()).toBe(204);
    }
    await page.goto(`/server/${server.identifier}/activity`);
    await expect(page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem')).toHaveCount(3);
    // One entry's details open, so the properties list is audited too.
    await page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem').first().getByRole('button', { name: 'Details' }).click();
    await expect(page.getByRole('definition').first()).toBeVisible();
  },
  'file manager': async (page, fixtures) => {
    await openFileManager(page, fixtures);
    // A selection shows the selection toolbar as well.
    await page.getByRole('checkbox', { name: 'Select eula.txt' }).check();
    await expect(page.getByRole('toolbar', { name: 'Selected items' })).toBeVisible();
  },
  'file editor': async (page, fixtures) => {
    const { server } = await ownerWithServer(page, fixtures, FILES);
    await page.goto(`/server/${server.identifier}/file/server.properties`);
    await expect(page.getByRole('textbox', { name: 'Contents of server.properties' })).toContainText('max-players');
  },
  'New folder dialog': async (page, fixtures) => {
    await openFileManager(page, fixtures);
    await page.getByRole('button', { name: 'New folder' }).click();
    await expect(page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name')).toBeFocused();
  },
  'row menu': async (page, fixtures) => {
    await openFileManager(page, fixtures);
    await page.getByRole('button', { name: 'Actions for server.properties', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: 'Rename or move' })).toBeVisible();
  },
  'account menu': async (page, fixtures) => {
    const { owner } = await ownerWithServer(page, fixtures);
    await page.goto('/');
    await page.getByRole('button', { name: owner.username }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  },
  'not-found page': async (page, fixtures) => {
    await ownerWithServer(page, fixtures);
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  },
};

test('keyboard: skip link first, then the header, the search box, and Enter opens a server', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  filesOf,
}) => {
  const { owner, server } = await ownerWithServer(page, { makeUser, makeServer, signIn, filesOf });
  await page.goto('/');
  await noTransitions(page);
  const search = page.getByRole('searchbox', { name: 'Search servers' });
  await expect(search).toBeVisible();

  // From the top of the page: the skip link is the first stop, and it shows itself.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  expect(await focusIndicator(page)).toMatchObject({ visible: true });

  // Following it skips the header: the next stop is the search box.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(search).toBeFocused();
  expect(await focusIndicator(page)).toMatchObject({ visible: true });

  // Without the skip link the search box comes right after the header's three controls.
  await page.goto('/');
  await expect(search).toBeVisible();
  await noTransitions(page);
  const order: Locator[] = [
    skip,
    page.getByRole('link', { name: 'Aerie' }),
    page.getByRole('button', { name: 'Search or jump…' }),
    page.getByRole('button', { name: owner.username }),
    search,
  ];
  for (const stop of order) {
    await page.keyboard.press('Tab');
    await expect(stop).toBeFocused();
  }

  // Then the server row's link; Enter opens the server.
  await page.keyboard.press('Tab');
  const link = page.getByRole('link', { name: server.name });
  await expect(link).toBeFocused();
  expect(await focusIndicator(page)).toMatchObject({ visible: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/server/${server.identifier}$`));
  await expect(page.getByRole('heading', { level: 1, name: server.name })).toBeVisible();
});

/** Tabs through the page (from where focus is now): every stop, and those whose focus is not visible. */
async function tabStops(page: Page, maxStops: number): Promise<{ stops: string[]; invisible: string[] }> {
  const stops: string[] = [];
  const invisible: string[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < maxStops; i += 1) {
    // An autofocused field counts as the first stop.
    if (i > 0 || (await focusIndicator(page)).element === 'body') await page.keyboard.press('Tab');
    const stop = await focusIndicator(page);
    // Back at the start (or out of the document): every stop has been seen.
    if (stop.element === 'body' || seen.has(stop.position)) break;
    seen.add(stop.position);
    stops.push(stop.element);
    if (!stop.visible) invisible.push(stop.element);
  }
  return { stops, invisible };
}

/** Pages to tab through, and what shows once each has loaded again (from the top, state reset). */
const FOCUS_PAGES: Record<string, (page: Page) => Locator> = {
  'sign-in': (page) => page.getByLabel('Username or email'),
  'server list': (page) => page.getByRole('list', { name: 'Servers' }),
  console: (page) => page.getByRole('textbox', { name: 'Console command' }),
  'server overview': (page) => page.getByRole('region', { name: 'SFTP' }),
  startup: (page) => page.getByRole('textbox', { name: 'Max players' }),
  backups: (page) => page.getByRole('list', { name: 'Backups' }),
  databases: (page) => page.getByRole('list', { name: 'Databases' }),
  'server settings': (page) => page.getByLabel('Server name'),
  activity: (page) => page.getByRole('list', { name: 'Activity entries' }),
  'file manager': (page) => row(page, 'server.properties'),
};

/*
 * One test per page, its setup (user, server, sign-in) done once: at 360 px first (no sideways
 * scrolling, axe), then the same page resized to a desktop window (axe), then, for the pages
 * above, loaded again from the top and tabbed through.
 */
for (const [name, setup] of Object.entries(PAGES)) {
  const ready = FOCUS_PAGES[name];
  const title = `${name}: fits 360 px without sideways scrolling, no serious axe violations there or on a desktop window, dark and light${ready ? ', and every Tab stop shows visible focus' : ''}`;
  test(title, async ({ page, makeUser, makeServer, signIn, filesOf }) => {
    // Three audits, a reload and a Tab walk: the slowest pages passed 30 s on a busy machine.
    test.setTimeout(45_000);
    await page.setViewportSize(PHONE);
    await setup(page, { makeUser, makeServer, signIn, filesOf });
    await expectNoHorizontalOverflow(page, name);
    await expectNoSeriousViolations(page, `${name} (${PHONE.width} px)`);
    await page.setViewportSize(DESKTOP);
    await expectNoSeriousViolations(page, `${name} (${DESKTOP.width} px)`);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await noTransitions(page);
    await expectNoSeriousViolations(page, `${name} (light, ${DESKTOP.width} px)`);
    await page.emulateMedia({ colorScheme: 'dark' });
    if (!ready) return;
    // Start from the top of the document, as a keyboard user arriving on the page does.
    await page.reload();
    await expect(ready(page)).toBeVisible();
    await noTransitions(page);
    const { stops, invisible } = await tabStops(page, 40);
    test.info().annotations.push({ type: 'tab stops', description: stops.join(' → ') });
    expect(stops.length, "Tab reaches the page's controls").toBeGreaterThanOrEqual(3);
    expect(invisible.length, `focus is not visible on:\n${invisible.join('\n')}`).toBe(0);
  });
}
