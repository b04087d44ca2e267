import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from 'vitest';
import type { Config } from '../config';
import { openTestDatabase } from '../db';
import { makeFileFixture } from './files-support';
import type { TestPanel } from './harness';

/*
 * The server tests' `test` (and `it`): a test asks for what it needs by name and gets it fresh.
 *
 *   test('…', async ({ panel }) => …)                         a default panel
 *   test('…', async ({ makePanel }) => makePanel({ … }))      panels with other config
 *   test('…', async ({ files }) => …)                         the file fixture: two owners, their servers, canaries
 *   test('…', async ({ makeFiles }) => makeFiles({ … }))      the same on a panel with other config
 *   test('…', async ({ tempDir }) => …)                       an empty directory of its own
 *   test('…', async ({ database }) => …)                      a migrated database with no panel around it
 *
 * Everything a test made, these included, is closed or removed when the test ends, pass or fail:
 * the cleanup runs after the test and its afterEach hooks, and removes every panel's data dir.
 * Fixtures are made only for tests (and hooks) that name them.
 *
 * A test file extends this `test` with its own setup (`test.extend('owner', ({ panel }) =>
 * panel.user())`) and with the helpers that need it; `test.beforeEach(({ files }) => …)` gets
 * the same fixtures as the test it runs before.
 */

export type PanelOverrides = Partial<Config>;

export const test = base
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('makePanel', async ({}, { onCleanup }) => {
    const made: TestPanel[] = [];
    onCleanup(async () => {
      // Every one of them, even when one fails to close.
      const errors: unknown[] = [];
      for (const panel of made) await panel.close().catch((err: unknown) => errors.push(err));
      if (errors.length) throw new AggregateError(errors, 'a test panel failed to close');
    });
    return async (overrides: PanelOverrides = {}): Promise<TestPanel> => {
      // Loaded on first use: tests that only want a temp dir or a database do not load the app.
      const { makeTestPanel } = await import('./harness');
      const panel = await makeTestPanel(overrides);
      made.push(panel);
      return panel;
    };
  })
  .extend('panel', async ({ makePanel }) => makePanel())
  .extend('makeFiles', async ({ makePanel }) => {
    return async (overrides: PanelOverrides = {}) => makeFileFixture(await makePanel(overrides));
  })
  // Built on `panel`, so a test that names both gets the same one (`files.panel === panel`).
  .extend('files', async ({ panel }) => makeFileFixture(panel))
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('tempDir', async ({}, { onCleanup }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-test-'));
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  .extend('database', async ({}, { onCleanup }) => {
    const db = await openTestDatabase();
    onCleanup(() => db.destroy());
    return db;
  });

export const it = test;
