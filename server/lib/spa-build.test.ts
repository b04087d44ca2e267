import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ensureSpaBuilt, spaStaleReason } from './spa-build';

let root: string;

function write(rel: string, mtimeSeconds: number): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rel);
  fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
  // Directories count too (a deleted file only shows there); keep them old unless a test says so.
  for (let dir = path.dirname(file); dir.startsWith(root) && dir !== root; dir = path.dirname(dir)) fs.utimesSync(dir, 1000, 1000);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-spa-'));
  write('src/main.tsx', 2000);
  write('index.html', 2000);
  write('vite.config.ts', 2000);
  write('public/favicon.svg', 2000);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('asks for a build when dist/index.html is missing', () => {
  expect(spaStaleReason(root)).toBe('dist/index.html is missing');
});

it('is satisfied by a build newer than every source', () => {
  write('dist/index.html', 3000);
  expect(spaStaleReason(root)).toBeNull();
});

it('notices a newer file deep in src/, in public/ or the vite config', () => {
  write('dist/index.html', 3000);
  write('src/features/auth/sign-in-page.tsx', 4000);
  expect(spaStaleReason(root)).toBe('src changed since the last build');
  write('src/features/auth/sign-in-page.tsx', 2000);
  write('public/robots.txt', 4000);
  expect(spaStaleReason(root)).toBe('public changed since the last build');
  write('public/robots.txt', 2000);
  write('vite.config.ts', 4000);
  expect(spaStaleReason(root)).toBe('vite.config.ts changed since the last build');
});

it('does not build when AERIE_SKIP_BUILD=1', async () => {
  expect(await ensureSpaBuilt({ root, env: { AERIE_SKIP_BUILD: '1' }, log: () => {} })).toBe(false);
  expect(fs.existsSync(path.join(root, 'dist'))).toBe(false);
});
