import { test, expect } from './fixtures';

// The Network page: an owner adds, annotates, makes primary and deletes an allocation; a subuser
// who may only read sees the same rows with nothing to change.

const rows = (page: import('@playwright/test').Page) => page.getByRole('list', { name: 'Allocations' }).getByRole('listitem');

test('add, annotate, make primary and delete an allocation', async ({ page, makeUser, makeServer, signIn }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  await signIn(page, owner);
  await page.goto(`/server/${server.identifier}/network`);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByText('1 of 3 used')).toBeVisible();

  await page.getByRole('button', { name: 'Add allocation' }).click();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByText('2 of 3 used')).toBeVisible();
  const added = rows(page).nth(1);
  const address = (await added.getAttribute('aria-label')) ?? '';

  await added.getByRole('textbox', { name: /^Notes for / }).fill('Dynmap web map');
  await expect(added.getByRole('status')).toHaveText('Saved');
  await page.reload();
  await expect(page.getByRole('listitem', { name: address }).getByRole('textbox')).toHaveValue('Dynmap web map');

  await page.getByRole('listitem', { name: address }).getByRole('button', { name: 'Make primary' }).click();
  await expect(page.getByRole('listitem', { name: address }).getByText('Primary', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('listitem', { name: address }).getByText('Primary', { exact: true })).toBeVisible();

  // The old primary can go now; the new one offers no delete.
  await expect(page.getByRole('listitem', { name: address }).getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  const old = rows(page).filter({ has: page.getByRole('button', { name: 'Make primary' }) });
  await old.getByRole('button', { name: /^Delete/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('goes back to the node');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByText('1 of 3 used')).toBeVisible();

  await page.goto(`/server/${server.identifier}/activity`);
  const events = page.getByRole('list', { name: 'Activity entries' });
  for (const event of ['server:allocation.create', 'server:allocation.notes', 'server:allocation.primary', 'server:allocation.delete']) {
    await expect(events.getByRole('button', { name: `Filter by ${event}` })).toBeVisible();
  }
});

test('a subuser with only allocation.read sees everything read-only', async ({ page, makeUser, makeServer, signIn, makeSubuser }) => {
  const owner = makeUser();
  const server = makeServer(owner.email);
  const sub = makeSubuser(server, 'allocation.read');
  await signIn(page, sub);
  await page.goto(`/server/${server.identifier}`);
  await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: 'Network' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first().getByText('Primary', { exact: true })).toBeVisible();
  await expect(rows(page).first().getByRole('button', { name: /^Copy/ })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Make primary' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add allocation' })).toBeDisabled();
  // Explained, not just disabled: the button points at the line naming what the subuser lacks.
  await expect(page.getByRole('button', { name: 'Add allocation' })).toHaveAccessibleDescription(/allocation\.create/);
});
