import type { Page } from '@playwright/test';

/* Helpers for the file-manager specs; files are seeded and checked with the `filesOf` fixture. */

export const row = (page: Page, name: string) => page.getByRole('row', { name, exact: true });

/** Opens the ⋯ menu of a row and picks an item. */
export async function rowAction(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}
