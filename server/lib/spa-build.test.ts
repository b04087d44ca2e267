import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { test } from '../test/fixtures';
import { ensureSpaBuilt, spaStaleReason } from './spa-build';

function writeAt(root: string, rel: string, mtimeSeconds: number): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rel);
  fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
  // Directories count too (a deleted file only shows there); keep them old unless a test says so.
  for (let dir = path.dirname(file); dir.startsWith(root) && dir !== root; dir = path.dirname(dir)) fs.utimesSync(dir, 1000, 1000);
}

/** A project root with sources and no build; `write` adds a file to it with the given mtime. */
const it = test
  .extend('root', async ({ tempDir: root }) => {
    writeAt(root, 'src/main.tsx', 2000);
    writeAt(root, 'index.html', 2000);
    writeAt(root, 'vite.config.ts', 2000);
    writeAt(root, 'public/favicon.svg', 2000);
    return root;
  })
  .extend('write', async ({ root }) => {
    return (rel: string, mtimeSeconds: number) => writeAt(root, rel, mtimeSeconds);
  });

it('asks for a build when dist/index.html is missing', ({ root }) => {
  expect(spaStaleReason(root)).toBe('dist/index.html is missing');
});

it('is satisfied by a build newer than every source', ({ root, write }) => {
  write('dist/index.html', 3000);
  expect(spaStaleReason(root)).toBeNull();
});

it('notices a newer file deep in src/, in public/ or the vite config', ({ root, write }) => {
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

it('does not build when AERIE_SKIP_BUILD=1', async ({ root }) => {
  expect(await ensureSpaBuilt({ root, env: { AERIE_SKIP_BUILD: '1' }, log: () => {} })).toBe(false);
  expect(fs.existsSync(path.join(root, 'dist'))).toBe(false);
});
