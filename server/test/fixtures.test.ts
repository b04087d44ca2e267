import fs from 'node:fs';
import { describe, expect } from 'vitest';
import { test } from './fixtures';
import type { TestPanel } from './harness';

/*
 * The fixtures close what a test made when it ends, pass or fail. The first test fails on
 * purpose and keeps its panels here; the second, which runs after the first one's cleanup,
 * checks that they were alive then and are closed, their data dirs gone, now.
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
