import type { Page } from '@playwright/test';
import { test, expect, type Fixtures } from './fixtures';
import { expectNoInjection, watch } from './support/hostile';

/*
 * T-XSS-4: a tenant's program prints what a terminal might act on (markup, escape sequences that
 * open links, write the clipboard, rename the tab or make the terminal answer, a 1 MB line,
 * invalid UTF-8). Every viewer's console must show it as text: no script, no dialog, no link but
 * http(s), no clipboard write, no frame on the socket but the viewer's own commands, no hang.
 */

/** A program for the egg to run in place of the demo game: prints `payloads`, answers `say` and `stop`. */
const hostileGame = (payloads: string) => String.raw`
import readline from 'node:readline';
const out = (s) => process.stdout.write(s + '\n');
const ESC = '\x1b', BEL = '\x07';
${payloads}
out('Done (0.001s)! For help, type "help"');
setInterval(() => undefined, 1000);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'stop') process.exit(0);
  if (line.startsWith('say ')) out('[Server] ' + line.slice(4));
});
`;

/** Markup, colour floods, a 1 MB line, invalid UTF-8, and sequences a terminal might act on. */
const PAYLOADS = String.raw`
out('Z'.repeat(1024 * 1024));
out('<script>alert(1)</script>');
out('<img src=x onerror=alert(1)>');
out(Array.from({ length: 256 }, (_, i) => ESC + '[38;5;' + i + ';48;5;' + (255 - i) + ';1;3;4;5;7;9m#').join('') + ESC + '[0m');
out((ESC + '[1;31;42m' + ESC + '[38;2;255;0;0m' + ESC + '[5m' + ESC + '[8m').repeat(2000));
out(ESC + '[0mCOLOURS-END');
process.stdout.write(Buffer.concat([Buffer.from('INVALID-UTF8 '), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x28, 0x8c, 0x28]), Buffer.from(' END\n')]));
out(ESC + ']0;PWNED-TITLE' + BEL + ESC + ']2;PWNED-TITLE-2' + BEL + 'TITLE-SENT');
out(ESC + ']52;c;' + Buffer.from('CLIPBOARD-PWNED').toString('base64') + BEL + 'CLIPBOARD-SENT');
out(ESC + '[?2004h' + ESC + '[200~say pasted' + ESC + '[201~PASTE-SENT');
out(ESC + '[6n' + ESC + '[c' + ESC + '[>c' + ESC + '[5n' + ESC + ']10;?' + BEL + ESC + ']11;?' + BEL + ESC + '[?1000h' + ESC + '[?1003h' + ESC + '[?1004hREPORTS-ASKED');
out('https://example.com/aerie-web-link');
out('javascript:alert(1)');
out(ESC + ']8;;javascript:alert(1)' + BEL + 'JSLINK' + ESC + ']8;;' + BEL);
out(ESC + ']8;;data:text/html,<script>alert(1)</script>' + BEL + 'DATALINK' + ESC + ']8;;' + BEL);
out(ESC + ']8;;file:///etc/passwd' + BEL + 'FILELINK' + ESC + ']8;;' + BEL);
`;

/** Lines that leave something open: conceal, a hyperlink, a DCS string, an OSC the daemon cuts at 8 KiB. */
const UNENDED = String.raw`
out(ESC + '[8;41mCONCEALED');
out('AFTER-CONCEAL');
out(ESC + ']8;;https://evil.example/' + BEL + 'OPEN-LINK');
out('AFTER-LINK');
out(ESC + 'Pq unended DCS');
out('AFTER-DCS');
out(ESC + ']2;' + 'Y'.repeat(1024 * 1024));
out('AFTER-OSC');
`;

const terminal = (page: Page) => page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });
const power = (page: Page) => page.getByRole('group', { name: 'Power' });
const command = (page: Page) => page.getByRole('textbox', { name: 'Console command' });

/** A new owner, signed in, on the console of a new server whose program prints `payloads`. */
async function openHostile(page: Page, payloads: string, fixtures: Pick<Fixtures, 'makeUser' | 'makeServer' | 'signIn' | 'filesOf'>) {
  const owner = fixtures.makeUser();
  const server = fixtures.makeServer(owner.email);
  await fixtures.signIn(page, owner);
  await fixtures.filesOf(server, page).seed({ 'demo-game.mjs': hostileGame(payloads) });
  await page.goto(`/server/${server.identifier}`);
  await expect(serverStatus(page)).toHaveText('Offline');
}

async function start(page: Page) {
  await power(page).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(terminal(page)).toContainText('For help, type "help"', { timeout: 20_000 });
  await expect(serverStatus(page)).toHaveText('Running');
}

async function stop(page: Page) {
  await power(page).getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 20_000 });
}

/** Hovers the word in the terminal (xterm finds links on hover), then clicks it. */
async function clickWord(page: Page, text: string) {
  const word = terminal(page).getByText(text, { exact: true });
  // xterm redraws its rows as output arrives and links are hovered: look again until it is laid out.
  let box: { x: number; y: number; height: number } | null = null;
  await expect(async () => {
    box = await word.boundingBox({ timeout: 1000 });
    expect(box, `${text} is on screen`).not.toBeNull();
  }).toPass();
  if (!box) return;
  const { x, y, height } = box;
  await page.mouse.move(x + 4, y + height / 2);
  await page.waitForTimeout(200);
  await page.mouse.click(x + 4, y + height / 2);
}

/** Modes that would take the viewer's scrolling and selecting: mouse reports, the alternate screen. */
const MODES = String.raw`
out('FIRST-LINE');
out(ESC + '[?1000h' + ESC + '[?1002h' + ESC + '[?1003h' + ESC + '[?1006h' + ESC + '[?1049hMODES-SET');
for (let i = 0; i < 40; i += 1) out('filler ' + i);
`;

test('what a server prints stays inert text in the console', async ({ page, context, makeUser, makeServer, signIn, filesOf }) => {
  test.setTimeout(90_000);
  const guard = watch(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/plain', body: 'example' }));
  const opened: string[] = [];
  context.on('page', (p) => opened.push(p.url()));
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));

  await openHostile(page, PAYLOADS, { makeUser, makeServer, signIn, filesOf });
  const title = await page.title();
  await page.evaluate('navigator.clipboard.writeText("untouched")');

  await start(page);
  for (const marker of ['COLOURS-END', 'INVALID-UTF8', 'TITLE-SENT', 'CLIPBOARD-SENT', 'PASTE-SENT', 'REPORTS-ASKED', 'JSLINK']) {
    await expect(terminal(page)).toContainText(marker);
  }

  // Links that are not http(s) open nothing, with or without a question.
  for (const word of ['JSLINK', 'DATALINK', 'FILELINK', 'javascript:alert(1)']) await clickWord(page, word);
  await page.waitForTimeout(500);
  expect(opened).toEqual([]);
  expect(guard.dialogs).toEqual([]);
  // A plain http(s) address still opens, in a new tab.
  const popup = context.waitForEvent('page');
  await clickWord(page, 'https://example.com/aerie-web-link');
  await expect(await popup).toHaveURL('https://example.com/aerie-web-link');

  // Keys and a paste in the terminal are not input either (the terminal is read-only).
  await clickWord(page, 'COLOURS-END');
  await page.keyboard.type('typed\n');
  await page.keyboard.press('ControlOrMeta+v');

  // The page still responds after the 1 MB line: a command goes through and comes back.
  await command(page).fill('say still alive');
  await command(page).press('Enter');
  await expect(terminal(page)).toContainText('[Server] still alive');

  await page.screenshot({ path: test.info().outputPath('console-attacks.png'), fullPage: true });

  await expectNoInjection(page, guard);
  expect(await page.title()).toBe(title);
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('untouched');
  // The socket carried only the page's own requests and the one command typed in its field.
  const frames = sent.map((f) => JSON.parse(f) as { event: string; args: unknown[] });
  const commands = frames.filter((f) => f.event === 'send command').map((f) => f.args[0]);
  expect(commands).toEqual(['say still alive']);
  for (const { event } of frames) expect(['auth', 'send logs', 'send stats', 'send command']).toContain(event);

  await stop(page);
});

test('no line leaves the console hiding or linking what follows', async ({ page, context, makeUser, makeServer, signIn, filesOf }) => {
  const guard = watch(page);
  const opened: string[] = [];
  context.on('page', (p) => opened.push(p.url()));
  await openHostile(page, UNENDED, { makeUser, makeServer, signIn, filesOf });
  await start(page);
  // Concealed cells render as blanks: the text shows only if the attribute ended with its line.
  for (const marker of ['AFTER-CONCEAL', 'AFTER-LINK', 'AFTER-DCS', 'AFTER-OSC']) await expect(terminal(page)).toContainText(marker);
  await clickWord(page, 'AFTER-LINK');
  await page.waitForTimeout(500);
  expect(guard.dialogs, 'the next line carried the hyperlink').toEqual([]);
  expect(opened).toEqual([]);
  // The http(s) hyperlink itself asks first, naming its real target (dismissed here: nothing opens).
  await clickWord(page, 'OPEN-LINK');
  await expect.poll(() => guard.dialogs).toEqual([expect.stringMatching(/^confirm: .*https:\/\/evil\.example\//)]);
  expect(opened).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('console-unended.png'), fullPage: true });
  await stop(page);
});

test('a server cannot take the viewer’s scrolling or selection', async ({ page, context, makeUser, makeServer, signIn, filesOf }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openHostile(page, MODES, { makeUser, makeServer, signIn, filesOf });
  await start(page);
  await expect(terminal(page)).toContainText('filler 39');
  await page.getByRole('region', { name: 'Console' }).locator('.xterm-screen').hover();
  // Each wheel event scrolls a few lines.
  await expect(async () => {
    await page.mouse.wheel(0, -1000);
    await expect(terminal(page)).toContainText('FIRST-LINE', { timeout: 200 });
  }).toPass();
  const word = terminal(page).getByText('FIRST-LINE');
  const at = await word.boundingBox();
  if (!at) throw new Error('the console is not laid out');
  await page.mouse.dblclick(at.x + 10, at.y + at.height / 2);
  await page.keyboard.press('ControlOrMeta+c');
  await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toContain('FIRST');
  await stop(page);
});
