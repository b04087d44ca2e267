import { test, expect } from './fixtures';

// The Schedules tab against the real panel: an owner creates "Restart every day at 04:00" from a
// preset, sees it in words with its zone and the next runs, pauses it; a subuser with
// schedule.read alone sees the list and no edit controls.

const shots = process.env.E2E_SHOTS;

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
});
