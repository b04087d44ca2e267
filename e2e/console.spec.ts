import type { WebSocketRoute } from '@playwright/test';
import { test, expect, type E2eServer, type E2eUser } from './fixtures';
import type { Page } from '@playwright/test';

// The console page, the server's landing page: the demo game's real process in its sandbox, the
// node's websocket, power and commands, as owners and subusers see them.

/** What the terminal shows (xterm renders its visible rows as text). */
const terminal = (page: Page) => page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
const power = (page: Page) => page.getByRole('group', { name: 'Power' });
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });
const command = (page: Page) => page.getByRole('textbox', { name: 'Console command' });

/** Starts the server from the page and waits for the demo game's "Done" line. */
async function startServer(page: Page) {
  await power(page).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(terminal(page)).toContainText('Done (', { timeout: 20_000 });
  await expect(serverStatus(page)).toHaveText('Running');
}

/** Stops it again, so no process outlives its test. */
async function stopServer(page: Page) {
  await power(page).getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 20_000 });
}

async function openAsOwner(
  page: Page,
  fixtures: { makeUser: () => E2eUser; makeServer: (email: string) => E2eServer; signIn: (page: Page, user: E2eUser) => Promise<void> },
) {
  const owner = fixtures.makeUser();
  const server = fixtures.makeServer(owner.email);
  await fixtures.signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');
  return { owner, server };
}

test('the owner starts the demo server, sees its log, sends a command and stops it', async ({ page, makeUser, makeServer, signIn }) => {
  await openAsOwner(page, { makeUser, makeServer, signIn });
  await expect(command(page)).toBeDisabled();
  await expect(power(page).getByRole('button', { name: 'Stop' })).toBeDisabled();

  await startServer(page);
  await expect(terminal(page)).toContainText('Starting demo game server');
  await expect(power(page).getByRole('button', { name: 'Start', exact: true })).toBeDisabled();

  await command(page).fill('say hello');
  await command(page).press('Enter');
  await expect(terminal(page)).toContainText('[Server] hello');
  await expect(command(page)).toHaveValue('');

  await stopServer(page);
  await expect(command(page)).toBeDisabled();
  await expect(power(page).getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
});

test('a subuser with only control.start sees Start, no other power button and no command field', async ({
  page,
  makeUser,
  makeServer,
  signIn,
  makeSubuser,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'control.start,websocket.connect');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await expect(power(page).getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  await expect(power(page).getByRole('button')).toHaveCount(1);
  await expect(command(page)).toHaveCount(0);
  await expect(page.getByText('Read-only: your account may watch this console but not send commands.')).toBeVisible();
});

test('a subuser with only websocket.connect watches the console read-only', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'websocket.connect');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');
  await expect(terminal(page)).toBeVisible();
  await expect(page.getByText('Read-only: your account may watch this console but not send commands.')).toBeVisible();
  await expect(power(page)).toHaveCount(0);
  await expect(command(page)).toHaveCount(0);
});

test('a reload replays the console history', async ({ page, makeUser, makeServer, signIn }) => {
  await openAsOwner(page, { makeUser, makeServer, signIn });
  await startServer(page);
  await command(page).fill('say before the reload');
  await command(page).press('Enter');
  await expect(terminal(page)).toContainText('[Server] before the reload');

  await page.reload();
  await expect(serverStatus(page)).toHaveText('Running');
  await expect(terminal(page)).toContainText('Done (');
  await expect(terminal(page)).toContainText('[Server] before the reload');
  // The history is replayed once, not added to what was shown.
  await expect(terminal(page).getByText('[Server] before the reload')).toHaveCount(1);
  await stopServer(page);
});

test('a dropped socket reconnects, keeping the output on screen and the console live', async ({ page, makeUser, makeServer, signIn }) => {
  // Every socket of the page goes through the test, which can cut it as a broken network would.
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/servers\/[^/]+\/ws$/, (ws) => {
    ws.connectToServer();
    sockets.push(ws);
  });
  await openAsOwner(page, { makeUser, makeServer, signIn });
  await startServer(page);

  await sockets.at(-1)?.close({ code: 1001, reason: 'network gone' });
  const connection = page.getByRole('status', { name: 'Connection' });
  await expect(connection).toHaveText('Reconnecting…');
  await expect(terminal(page)).toContainText('Done (');

  await expect(connection).toHaveText('', { timeout: 15_000 });
  expect(sockets.length).toBeGreaterThanOrEqual(2);
  await command(page).fill('say after the drop');
  await command(page).press('Enter');
  await expect(terminal(page)).toContainText('[Server] after the drop');
  await expect(terminal(page).getByText(/Done \(/)).toHaveCount(1);
  await stopServer(page);
});

test('Ctrl+F searches the console while it has focus, and leaves the browser’s find alone elsewhere', async ({
  page,
  makeUser,
  makeServer,
  signIn,
}) => {
  await openAsOwner(page, { makeUser, makeServer, signIn });
  const search = page.getByRole('searchbox', { name: 'Search the console' });
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('ControlOrMeta+f');
  await expect(search).toHaveCount(0);

  await page.getByRole('region', { name: 'Console' }).locator('.xterm-screen').click();
  await page.keyboard.press('ControlOrMeta+f');
  await expect(search).toBeFocused();
  await search.press('Escape');
  await expect(search).toHaveCount(0);
});

test('scrolling up the output offers a jump back to the bottom', async ({ page, makeUser, makeServer, signIn }) => {
  await openAsOwner(page, { makeUser, makeServer, signIn });
  await startServer(page);
  for (let i = 0; i < 40; i += 1) {
    await command(page).fill(`say line ${i}`);
    await command(page).press('Enter');
  }
  await expect(terminal(page)).toContainText('[Server] line 39');
  const jump = page.getByRole('button', { name: 'Jump to bottom' });
  await expect(jump).toHaveCount(0);

  await page.getByRole('region', { name: 'Console' }).locator('.xterm-screen').hover();
  await page.mouse.wheel(0, -2000);
  await expect(jump).toBeVisible();
  await expect(terminal(page)).not.toContainText('[Server] line 39');
  await jump.click();
  await expect(terminal(page)).toContainText('[Server] line 39');
  await expect(jump).toHaveCount(0);
  await stopServer(page);
});

test('the server list shows each row’s live state', async ({ page, makeUser, makeServer, signIn }) => {
  const { server } = await openAsOwner(page, { makeUser, makeServer, signIn });
  await startServer(page);
  await page.goto('/');
  const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: server.name }) });
  await expect(row.getByText('Running', { exact: true })).toBeVisible();

  await page.goto(`/server/${server.identifier}`);
  await stopServer(page);
  await page.goto('/');
  await expect(row.getByText('Offline', { exact: true })).toBeVisible();
});

test('Ctrl+C copies the text selected in the console', async ({ page, context, makeUser, makeServer, signIn }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openAsOwner(page, { makeUser, makeServer, signIn });
  await startServer(page);
  await command(page).fill('say copyable');
  await command(page).press('Enter');
  const word = terminal(page).getByText('copyable');
  await expect(word).toBeVisible();
  // A triple click selects the line under the pointer (xterm's own selection); the element found
  // may be the whole row, so the pointer stays at its start, where the line's text is.
  const at = await word.boundingBox();
  if (!at) throw new Error('the console is not laid out');
  await page.mouse.click(at.x + 8, at.y + at.height / 2, { clickCount: 3 });
  await page.keyboard.press('ControlOrMeta+c');
  await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toContain('copyable');
  await stopServer(page);
});

test('Kill during a stop the program ignores ends the server within 2 s (issue 22 #4)', async ({ page, makeUser, makeServer, signIn, filesOf }) => {
  const { server } = await openAsOwner(page, { makeUser, makeServer, signIn });
  // A program that says it is done and then ignores its stop command and ^C: the stop waits out its timeout.
  await filesOf(server).seed({
    'demo-game.mjs': `process.on('SIGINT', () => {}); process.stdin.resume(); console.log('Done (0.1s)! For help, type "help"'); setInterval(() => {}, 1000);`,
  });
  await startServer(page);
  await power(page).getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus(page)).toHaveText('Stopping');
  await power(page).getByRole('button', { name: 'Kill' }).click();
  await page.getByRole('dialog', { name: 'Kill the server?' }).getByRole('button', { name: 'Kill' }).click();
  // Was refused ("Another power action is currently being processed") and ran on for the stop's 30 s.
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 2_000 });
  await expect(page.getByText('Another power action')).toHaveCount(0);
});
