import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { row } from './files-support';

/*
 * Issue 22's walk, in the browser: what the server list, the startup page and the file list say
 * at a desktop and a phone width. Screenshots go to .tmp/ for a look.
 */

const power = (page: Page) => page.getByRole('group', { name: 'Power' });
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });
const figures = (card: import('@playwright/test').Locator) =>
  card
    .locator('dl > div')
    .evaluateAll((items) => items.map((d) => `${d.querySelector('dt')?.textContent ?? ''}: ${d.querySelector('dd')?.textContent ?? ''}`));

for (const width of [1280, 390]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the server list shows a running server’s use against its limits, and a stopped one’s limits as limits', async ({
      page,
      makeUser,
      makeServer,
      signIn,
    }) => {
      const owner = makeUser();
      const tag = `usage${width}${Date.now().toString(36)}`;
      const running = makeServer(owner.email, `Running ${tag}`);
      makeServer(owner.email, `Stopped ${tag}`);
      await signIn(page, owner);
      await page.goto(`/server/${running.identifier}`);
      await expect(serverStatus(page)).toHaveText('Offline');
      await power(page).getByRole('button', { name: 'Start', exact: true }).click();
      await expect(serverStatus(page)).toHaveText('Running', { timeout: 20_000 });

      await page.goto(`/?q=${tag}`);
      const cards = page.getByRole('list', { name: 'Servers' }).getByRole('listitem');
      const runningCard = cards.filter({ has: page.getByRole('link', { name: `Running ${tag}` }) });
      const stoppedCard = cards.filter({ has: page.getByRole('link', { name: `Stopped ${tag}` }) });
      await expect(runningCard.getByText('Running', { exact: true })).toBeVisible();
      await expect(stoppedCard.getByText('Offline', { exact: true })).toBeVisible();
      expect((await figures(runningCard)).map((f) => f.replace(/: .*? of /, ': … of '))).toEqual([
        'Memory: … of 1 GiB',
        'Disk: … of 5 GiB',
        'CPU: … of 100%',
      ]);
      expect(await figures(stoppedCard)).toEqual(['Memory limit: 1 GiB', 'Disk limit: 5 GiB', 'CPU limit: 100%']);
      await page.screenshot({ path: `.tmp/walk-server-list-${width}.png`, fullPage: true });

      await page.goto(`/server/${running.identifier}`);
      await power(page).getByRole('button', { name: 'Stop' }).click();
      await expect(serverStatus(page)).toHaveText('Offline', { timeout: 20_000 });
    });

    test('a Paper server’s startup page says what it runs with and what it needs', async ({ page, cli, makeUser, signIn }) => {
      const owner = makeUser();
      const server = cli<{ identifier: string }>(['server:create', '--owner', owner.email, '--name', `Paper ${width}`, '--egg', 'Paper']);
      await signIn(page, owner);
      await page.goto(`/server/${server.identifier}/startup`);
      const card = page.getByRole('region', { name: 'What it runs with' });
      await expect(card).toContainText(/java/);
      await expect(card).toContainText(
        'Installing this server downloads nothing: upload server.jar, the file its startup command runs, to its files before starting it.',
      );
      await expect(card).toContainText('does not run container images yet');
      await expect(page.getByText('Image the server runs in')).toHaveCount(0);
      await page.screenshot({ path: `.tmp/walk-startup-paper-${width}.png`, fullPage: true });
      await page.goto(`/server/${server.identifier}/overview`);
      await expect(page.getByText(/Not used yet: this node runs the server with this machine’s own programs/)).toBeVisible();
      await page.screenshot({ path: `.tmp/walk-overview-paper-${width}.png`, fullPage: true });
    });

    test('file sizes stay on one line', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
      const owner = makeUser();
      const server = makeServer(owner.email);
      await signIn(page, owner);
      // The widest sizes the list writes: four digits and a unit.
      await filesOf(server, page).seed({ 'a-long-name-for-a-small-file.txt': 'x'.repeat(1023), 'nearly-a-mebibyte.bin': 'x'.repeat(1023 * 1024) });
      await page.goto(`/server/${server.identifier}/files`);
      for (const [name, size] of [
        ['a-long-name-for-a-small-file.txt', '1023 B'],
        ['nearly-a-mebibyte.bin', '1023 KiB'],
      ] as const) {
        const cell = row(page, name).getByRole('gridcell').filter({ hasText: size });
        await expect(cell).toBeVisible();
        const [height, lineHeight] = await cell.evaluate((el) => [
          el.getBoundingClientRect().height,
          parseFloat(el.ownerDocument.defaultView?.getComputedStyle(el).lineHeight ?? '0'),
        ]);
        expect(height).toBeLessThan(lineHeight * 1.5);
      }
      await page.screenshot({ path: `.tmp/walk-files-${width}.png`, fullPage: true });
    });

    test('a suspended server’s pages say they are unavailable, and ask for nothing that must fail', async ({
      page,
      cli,
      makeUser,
      makeServer,
      signIn,
    }) => {
      const owner = makeUser();
      const server = makeServer(owner.email);
      cli(['server:status', '--server', server.identifier, '--status', 'suspended']);
      await signIn(page, owner);
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
      });
      for (const [path, label] of [
        ['databases', 'Databases'],
        ['network', 'Network'],
        ['startup', 'Startup'],
        ['users', 'Users'],
        ['backups', 'Backups'],
      ] as const) {
        await page.goto(`/server/${server.identifier}/${path}`);
        await expect(page.getByRole('heading', { name: `${label} unavailable` })).toBeVisible();
      }
      await page.screenshot({ path: `.tmp/walk-unavailable-${width}.png`, fullPage: true });
      expect(refused).toEqual([]);
    });
  });
}
