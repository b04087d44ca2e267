import { afterEach, describe, expect, vi } from 'vitest';
import { loadConfig } from '../config';
import type { Db } from '../db';
import { fixedClock } from '../lib/time';
import { it } from '../test/fixtures';
import { logActivity } from './activity';
import { pruneActivity, startActivityPruning } from './activity-retention';

const DAY = 24 * 60 * 60 * 1000;

/** One entry (a subject included) per age, in days before `now`. */
async function seed(db: Db, now: Date, ages: number[]): Promise<void> {
  for (const age of ages) {
    await logActivity(db, {
      event: 'server:power.start',
      ip: '203.0.113.7',
      properties: { age },
      subjects: [{ type: 'server', id: 1 }],
      timestamp: new Date(now.getTime() - age * DAY),
    });
  }
}

async function ages(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('activity_logs').select('properties').orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.properties) as { age: number }).age);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('pruneActivity', () => {
  it('deletes entries older than the retention and their subjects, keeping the rest', async ({ database }) => {
    const now = new Date('2026-03-01T12:00:00Z');
    await seed(database, now, [0, 30, 89.9, 90.1, 400]);
    expect(await pruneActivity(database, now, 90)).toBe(2);
    expect(await ages(database)).toEqual([0, 30, 89.9]);
    const subjects = await database.selectFrom('activity_subjects').select('activity_log_id').execute();
    expect(subjects).toHaveLength(3);
  });

  it('deletes a long history in batches until none is left', async ({ database }) => {
    const now = new Date('2026-03-01T12:00:00Z');
    await seed(database, now, [...Array.from({ length: 2_500 }, () => 200), 1]);
    expect(await pruneActivity(database, now, 90)).toBe(2_500);
    expect(await ages(database)).toEqual([1]);
  });

  it('keeps everything with a retention of 0 days', async ({ database }) => {
    const now = new Date('2026-03-01T12:00:00Z');
    await seed(database, now, [1, 5_000]);
    expect(await pruneActivity(database, now, 0)).toBe(0);
    expect(await ages(database)).toEqual([1, 5_000]);
  });
});

describe('startActivityPruning', () => {
  it('prunes at start and again every day', async ({ database }) => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = fixedClock('2026-03-01T12:00:00Z');
    await seed(database, clock.now(), [1, 9.5, 95]);
    const stop = await startActivityPruning({ db: database, clock, retentionDays: 10, warn: () => undefined });
    expect(await ages(database)).toEqual([1, 9.5]);
    clock.advance(DAY);
    vi.advanceTimersByTime(DAY);
    await vi.waitFor(async () => expect(await ages(database)).toEqual([1]));
    stop();
  });
});

describe('APP_ACTIVITY_PRUNE_DAYS', () => {
  it('defaults to the reference panel’s 90 days and accepts 0 for forever', () => {
    expect(loadConfig({}).activityRetentionDays).toBe(90);
    expect(loadConfig({ APP_ACTIVITY_PRUNE_DAYS: '0' }).activityRetentionDays).toBe(0);
    expect(() => loadConfig({ APP_ACTIVITY_PRUNE_DAYS: '-1' })).toThrow(/APP_ACTIVITY_PRUNE_DAYS/);
  });
});
