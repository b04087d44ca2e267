import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { e2eDataDir } from './support/cli';

/*
 * Helpers for the file-manager specs: files are seeded straight into the server's volume in the
 * running panel's data dir (the local daemon keeps it at <data dir>/volumes/<uuid>).
 */

export function volume(serverUuid: string): string {
  return path.join(e2eDataDir(), 'volumes', serverUuid);
}

/** Writes files into a volume: `{ 'plugins/a.yml': 'x: 1' }`; a key ending in `/` makes a folder. */
export function seed(serverUuid: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(volume(serverUuid), rel);
    if (rel.endsWith('/')) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
}

export function readVolumeFile(serverUuid: string, rel: string): string {
  return fs.readFileSync(path.join(volume(serverUuid), rel), 'utf8');
}

export function volumeHas(serverUuid: string, rel: string): boolean {
  return fs.existsSync(path.join(volume(serverUuid), rel));
}

export const row = (page: Page, name: string) => page.getByRole('row', { name, exact: true });

/** Opens the ⋯ menu of a row and picks an item. */
export async function rowAction(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}
