import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

// The Schedules tab against the real panel: an owner creates "Restart every day at 04:00" from a
// preset, sees it in words with its zone and the next runs, pauses it; adds a warning and a
// restart, runs it now and watches the console say the warning and the server restart, then the
// run in the history; a subuser with schedule.read alone sees the list and the schedule's page
// without edit controls.

const shots = process.env.E2E_SHOTS;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}-${page.viewportSize()?.width}.png`, fullPage: true });
};
const terminal = (page: Page) => page.getByRole('region', { name: 'Console' }).locator('.xterm-rows');
const serverStatus = (page: Page) => page.getByRole('status', { name: 'Server status' });
// Keeps every text the status shows (a script: this project's e2e code has no DOM types).
const WATCH_STATUS = `
  const seen = (window.e2eStatuses = []);
  const read = () => {
    const text = document.querySelector('[role="status"][aria-label="Server status"]')?.textContent ?? '';
    if (seen.at(-1) !== text) seen.push(text);
  };
  read();
  new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
`;
const serverNav = (page: Page) => page.getByRole('navigation', { name: 'Server' });

test('an owner creates a daily schedule, sees it in words, and pauses it', async ({ page, makeUser, makeServer, signIn }) => {
  // E2E_SHOTS_WIDTH: the same journey at a phone's width, for the screenshots.
  if (process.env.E2E_SHOTS_WIDTH) await page.setViewportSize({ width: Number(process.env.E2E_SHOTS_WIDTH), height: 844 });
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Schedules' }).click();
  await expect(page.getByText('No schedules yet')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/schedules-empty-${page.viewportSize()?.width}.png`, fullPage: true });

  await page.getByRole('button', { name: 'Create schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create schedule' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Restart every day at 04:00');
  await dialog.getByRole('combobox', { name: 'Runs' }).selectOption('daily');
  await dialog.getByLabel('At', { exact: true }).fill('04:00');
  await expect(dialog.getByRole('textbox', { name: 'Hour' })).toHaveValue('4');
  await expect(dialog.getByRole('region', { name: 'Next runs' }).getByRole('listitem')).toHaveCount(5);
  // A bad field is caught on that field before anything is sent.
  await dialog.getByRole('textbox', { name: 'Minute' }).fill('61');
  await expect(dialog.getByText('The minute field is not a valid cron value: "61".')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/schedules-editor-${page.viewportSize()?.width}.png`, fullPage: true });
  await dialog.getByRole('textbox', { name: 'Minute' }).fill('0');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('listitem', { name: 'Restart every day at 04:00' });
  await expect(row).toContainText(/Every day at 0?4:00/);
  await expect(row.getByRole('switch', { name: 'Active' })).toHaveAttribute('aria-checked', 'true');
  if (shots) await page.screenshot({ path: `${shots}/schedules-list-${page.viewportSize()?.width}.png`, fullPage: true });
  await row.getByRole('switch', { name: 'Active' }).click();
  await expect(row.getByRole('switch', { name: 'Active' })).toHaveAttribute('aria-checked', 'false');
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Restart every day at 04:00' }).getByRole('switch', { name: 'Active' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
});

test('a subuser with schedule.read alone sees the list and no edit controls', async ({
  page,
  request,
  cli,
  makeUser,
  makeServer,
  signIn,
  makeSubuser,
}) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const { token } = cli<{ token: string }>(['apikey:create', '--email', owner.email, '--description', 'e2e schedules']);
  const created = await request.post(`/api/client/servers/${server.uuid}/schedules`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    data: { name: 'Weekly backup', minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '1' },
  });
  expect(created.status()).toBe(200);
  const sub = makeSubuser(server, 'schedule.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Schedules' }).click();
  const row = page.getByRole('listitem', { name: 'Weekly backup' });
  await expect(row).toContainText('Every Monday at');
  await expect(row.getByRole('switch', { name: 'Active' })).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create schedule' })).toBeDisabled();

  // Its own page: the tasks and the runs, and no control to change or run it.
  await row.getByRole('link', { name: 'Weekly backup' }).click();
  await expect(page.getByRole('heading', { name: 'Weekly backup' })).toBeVisible();
  await expect(page.getByText('No tasks yet')).toBeVisible();
  await expect(page.getByText('No runs yet')).toBeVisible();
  for (const name of ['Run now', 'Edit', 'Delete', 'Add task']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
});

test('an owner adds a warning and a restart, runs it now, watches the console restart the server, and sees the run in the history', async ({
  page,
  makeUser,
  makeServer,
  signIn,
}) => {
  test.setTimeout(120_000);
  if (process.env.E2E_SHOTS_WIDTH) await page.setViewportSize({ width: Number(process.env.E2E_SHOTS_WIDTH), height: 844 });
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(terminal(page)).toContainText('Done (', { timeout: 20_000 });
  await expect(serverStatus(page)).toHaveText('Running');

  await serverNav(page).getByRole('link', { name: 'Schedules' }).click();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  const create = page.getByRole('dialog', { name: 'Create schedule' });
  await create.getByRole('textbox', { name: 'Name' }).fill('Restart every day at 04:00');
  await create.getByRole('combobox', { name: 'Runs' }).selectOption('daily');
  await create.getByLabel('At', { exact: true }).fill('04:00');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  await page.getByRole('link', { name: 'Restart every day at 04:00' }).click();

  await expect(page.getByRole('heading', { name: 'Restart every day at 04:00' })).toBeVisible();
  await expect(page).toHaveTitle(/^Restart every day at 04:00 · Schedules/);
  await expect(page.getByText(/^Every day at 0?4:00/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Next runs' }).getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Run now' })).toBeDisabled();

  await page.getByRole('button', { name: 'Add task' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add task' });
  await dialog.getByRole('textbox', { name: 'Command' }).fill('say Restarting in 60 seconds');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Add task' }).click();
  dialog = page.getByRole('dialog', { name: 'Add task' });
  await dialog.getByRole('combobox', { name: 'Action' }).selectOption('power');
  await expect(dialog.getByRole('combobox', { name: 'Signal' }).getByRole('option')).toHaveText(['Start', 'Stop', 'Restart', 'Kill (stop at once)']);
  await dialog.getByRole('combobox', { name: 'Signal' }).selectOption('restart');
  await dialog.getByRole('spinbutton', { name: 'Time offset (seconds)' }).fill('60');
  await shot(page, 'schedule-task-dialog');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  const tasks = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
  await expect(tasks.nth(0)).toContainText('Send command say Restarting in 60 seconds');
  await expect(tasks.nth(0)).toContainText('As soon as the run starts');
  await expect(tasks.nth(1)).toContainText('Restart the server');
  await expect(tasks.nth(1)).toContainText('60 s after the previous task');
  await shot(page, 'schedule-page');

  // A short wait for the run itself, so the test stays quick.
  await page.getByRole('button', { name: 'Edit task 2' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit task' });
  await dialog.getByRole('spinbutton', { name: 'Time offset (seconds)' }).fill('5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(tasks.nth(1)).toContainText('5 s after the previous task');

  await page.getByRole('button', { name: 'Run now' }).click();
  const ask = page.getByRole('dialog', { name: 'Run now' });
  await expect(ask).toContainText('Run “Restart every day at 04:00” now? Its tasks run in order, each after its offset.');
  await ask.getByRole('button', { name: 'Run now' }).click();
  const current = page.getByRole('region', { name: 'Current run' });
  await expect(current).toContainText('Running');
  await expect(current.getByRole('listitem', { name: 'Task 1: done' })).toBeVisible();
  await shot(page, 'schedule-run-progress');

  // The console: the warning, then the restart (its status leaves Running and comes back).
  await serverNav(page).getByRole('link', { name: 'Console' }).click();
  await expect(terminal(page)).toContainText('[Server] Restarting in 60 seconds');
  // A restart of the demo game takes well under a second: every status the page shows is kept.
  await page.evaluate(WATCH_STATUS);
  await expect
    .poll(() => page.evaluate('window.e2eStatuses.join(" → ")'), { timeout: 30_000 })
    .toMatch(/^Running → .*(Stopping|Starting|Offline).* → Running$/);
  await expect(terminal(page)).toHaveText(/Restarting in 60 seconds[\s\S]*Done \(/);

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Restart every day at 04:00' })).toBeVisible();
  const run = page.getByRole('list', { name: 'Runs' }).getByRole('listitem', { name: /^Run now, started .*: done$/ });
  await expect(run).toBeVisible();
  await run.getByText('Run now', { exact: true }).click();
  await expect(run.getByRole('listitem', { name: 'Task 2: done' })).toContainText('Restart the server');
  await shot(page, 'schedule-history');

  await serverNav(page).getByRole('link', { name: 'Console' }).click();
  await page.getByRole('group', { name: 'Power' }).getByRole('button', { name: 'Stop' }).click();
  await expect(serverStatus(page)).toHaveText('Offline', { timeout: 20_000 });
});
