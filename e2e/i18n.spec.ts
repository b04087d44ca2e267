import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

/*
 * The SPA in German (issue 26 §1): the language chosen on the account page applies at once, and
 * every page of a server then shows no English in its main content, at 1280 and 360 px wide.
 * "English" is a word of the English catalogues that no German message uses, or a common English
 * word; names (the server's, the egg's variables, files in the volume) are the user's data.
 */

function catalogueWords(locale: string): Set<string> {
  const words = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === `${locale}.json` && path.basename(dir) === 'locales') {
        for (const message of Object.values(JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, string>)) {
          // Placeholders and ICU keywords are not shown text.
          const text = message.replace(/\{[\w]+(?:,\s*\w+)?|[{}#]|<\/?\d+\/?>/g, ' ');
          for (const word of text.toLowerCase().match(/\p{L}{3,}/gu) ?? []) words.add(word);
        }
      }
    }
  };
  walk(path.resolve(import.meta.dirname, '../src'));
  return words;
}

const german = catalogueWords('de');
const COMMON = [
  'the',
  'and',
  'you',
  'your',
  'this',
  'that',
  'with',
  'for',
  'from',
  'not',
  'yet',
  'are',
  'will',
  'can',
  'has',
  'have',
  'was',
  'none',
  'when',
  'there',
];
const ENGLISH = new Set([...[...catalogueWords('en')].filter((w) => !german.has(w)), ...COMMON]);

/** English words in the page's main content, apart from `allowed` (names) and what is code or program output. */
async function englishIn(page: Page, allowed: Set<string>): Promise<string[]> {
  // A string, since e2e code is type-checked without the DOM library.
  const text = await page.evaluate<string>(`(() => {
    const main = document.querySelector('main').cloneNode(true);
    main.querySelectorAll('.xterm, code, kbd, pre, input, textarea, select, [translate="no"]').forEach((e) => e.remove());
    return main.textContent;
  })()`);
  const words = text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return [...new Set(words.filter((w) => ENGLISH.has(w) && !allowed.has(w)))];
}

const PAGES = ['', 'overview', 'files', 'databases', 'schedules', 'users', 'backups', 'network', 'startup', 'settings', 'activity'];

test('German chosen on the account page: every server page has no English left, at 1280 and 360 px', async ({
  page,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(120_000);
  const owner = makeUser();
  const server = makeServer(owner.email, 'Testwelt');
  await signIn(page, owner);

  // Names the pages show that are the user's data, not the SPA's words.
  const cookies = await page.context().storageState();
  const xsrf = decodeURIComponent(cookies.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const headers = { 'X-XSRF-TOKEN': xsrf, Accept: 'application/json' };
  const startup = await page.request.get(`/api/client/servers/${server.identifier}/startup`, { headers });
  const files = await page.request.get(`/api/client/servers/${server.identifier}/files/list?directory=%2F`, { headers });
  const names = JSON.stringify([await startup.json(), await files.json()]).toLowerCase();
  const allowed = new Set(names.match(/\p{L}{3,}/gu) ?? []);

  // The check finds English where there is some: the overview before the switch.
  await page.goto(`/server/${server.identifier}/overview`);
  await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
  await expect.poll(() => englishIn(page, allowed)).toContain('memory');

  await page.goto('/account/appearance');
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('heading', { name: 'Darstellung' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    for (const sub of PAGES) {
      await page.goto(`/server/${server.identifier}${sub ? `/${sub}` : ''}`);
      await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
      await expect(page.getByRole('main').getByRole('status', { name: /Lädt/ })).toHaveCount(0);
      await expect.poll(() => englishIn(page, allowed), { message: `English on /${sub} at ${width} px` }).toEqual([]);
      const sideways = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(sideways, `/${sub} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    }
  }
  // After a reload the account's language still holds.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
