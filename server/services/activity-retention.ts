import type { Db } from '../db';
import { activity } from '../db/repos';
import type { Clock } from '../lib/time';

/*
 * Old activity is pruned, as the reference panel does daily (90 days by default): at start and
 * then once a day. Entries are deleted a batch at a time, yielding between batches, so a first
 * prune of a long history does not stall the requests being served meanwhile.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1_000;

/** Deletes the entries older than `retentionDays` before now; returns how many. 0 days keeps everything. */
export async function pruneActivity(db: Db, now: Date, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const deleted = await activity.deleteOlderThan(db, cutoff, BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface ActivityPruning {
  db: Db;
  clock: Clock;
  retentionDays: number;
  /** Where a failed prune is reported; the next day's prune tries again. */
  warn: (message: string) => void;
}

/** Prunes now (awaited), then every day until the returned function is called. */
export async function startActivityPruning(ctx: ActivityPruning): Promise<() => void> {
  if (ctx.retentionDays <= 0) return () => undefined;
  const run = () =>
    pruneActivity(ctx.db, ctx.clock.now(), ctx.retentionDays).catch((error: unknown) => {
      ctx.warn(`Pruning old activity failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  await run();
  const timer = setInterval(() => void run(), DAY_MS);
  // The daily prune never keeps the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
}
