import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Db } from '../db';
import { test } from './fixtures';
import type { TestPanel } from './harness';

/*
 * The fixtures close what a test made when it ends, pass or fail. In each block the first test
 * fails on purpose and keeps what it was given here; the second, which runs after the first
 * one's cleanup, checks that it was alive then and is closed, its directories gone, now.
 */

describe('panels made in a test', () => {
  let kept: TestPanel[] = [];
  let aliveDuringTest: boolean[] = [];

  test.fails('are closed even when the test fails', async ({ panel, makePanel, files, makeFiles }) => {
    const other = await makePanel({ apiRateLimit: 1 });
    const small = await makeFiles({ maxUploadBytes: 8 });
    kept = [panel, other, files.panel, small.panel];
    aliveDuringTest = kept.map((p) => fs.existsSync(p.dataDir));
    throw new Error('this test fails on purpose');
  });

  test('are closed and their data dirs gone once it ended', async () => {
    const [panel, other, filesPanel, small] = kept;
    expect(aliveDuringTest).toEqual([true, true, true, true]);
    expect(filesPanel).toBe(panel);
    expect(other?.config.apiRateLimit).toBe(1);
    expect(small?.config.maxUploadBytes).toBe(8);
    for (const p of kept) {
      expect(fs.existsSync(p.dataDir)).toBe(false);
      await expect(p.db.selectFrom('users').select('id').execute()).rejects.toThrow();
    }
  });
});

describe('temp dirs and databases made in a test', () => {
  let dir = '';
  let db: Db | undefined;
  let aliveDuringTest = false;

  test.fails('are removed and closed even when the test fails', async ({ tempDir, database }) => {
    fs.writeFileSync(path.join(tempDir, 'kept.txt'), 'x');
    await database.selectFrom('users').select('id').execute();
    dir = tempDir;
    db = database;
    aliveDuringTest = fs.existsSync(path.join(tempDir, 'kept.txt'));
    throw new Error('this test fails on purpose');
  });

  test('are removed and closed once it ended', async () => {
    expect(aliveDuringTest).toBe(true);
    expect(dir).not.toBe('');
    expect(fs.existsSync(dir)).toBe(false);
    await expect(db?.selectFrom('users').select('id').execute()).rejects.toThrow();
  });
});
