import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { MAX_DEPTH, type Dir, type Volume } from './confined';
import { lstatEach } from './listing';
import { DaemonError, noSpaceError } from '../types';

/*
 * Disk limits on every write path. Usage is what the volume holds
 * on disk: allocated blocks (st.blocks × 512, so a sparse file counts what it really uses), each
 * inode once (a thousand hard links to one file are one file), links never followed. Writes of a
 * server run one at a time (the caller holds the server's write lock, `locks.ts`), so "check,
 * then write" cannot be raced by a parallel write, and each write charges its bytes against a
 * budget *while* it streams, in whole blocks, before writing them: a refused write stops at the
 * limit rather than finding out at the end.
 *
 * The figure is cached per server for a few seconds and moved by each write, so a burst of
 * writes does not walk the tree each time. The cache is never what refuses a write, nor what
 * lets one come close to the limit: a budget from the cache stops short of the limit by a
 * margin, and reaching that margin measures the volume afresh before deciding. What the cache
 * cannot see is growth behind the daemon's back (the game's own writes): that is noticed at the
 * next measure, at most CACHE_MS later, and lets a write overshoot only by what exceeded the margin.
 */

/** The allocation unit writes are charged in (ext4, xfs, tmpfs); a new file or directory costs at least one. */
export const BLOCK = 4096;
const CACHE_MS = 5_000;
/** The share of the limit a cached figure is not trusted with. */
const CACHE_MARGIN = 0.1;

export const blocksFor = (bytes: number): number => Math.ceil(bytes / BLOCK) * BLOCK;

/** Charges the bytes of one file as they are written; throws `no_space` before the limit is passed. */
export type Meter = (bytes: number) => Promise<void>;

/** Allocated bytes below the volume root (the root itself excluded), each inode once, links never followed. */
export async function measureUsage(vol: Volume): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const walk = async (dir: Dir, depth: number): Promise<void> => {
    // Raw names: a name that is not valid UTF-8 must not hide its file from the count.
    const names = await fs.readdir(dir.ref, { encoding: 'buffer' });
    const subdirs: Buffer[] = [];
    await lstatEach(dir, names, (i, _name, st) => {
      if (st.isDirectory()) subdirs.push(names[i] as Buffer);
      else if (st.nlink > 1) {
        const key = `${st.dev}:${st.ino}`;
        if (seen.has(key)) return;
        seen.add(key);
      }
      total += st.blocks * 512;
    });
    if (subdirs.length > 0 && depth >= MAX_DEPTH) throw new DaemonError('bad_request', 'The directory tree is too deeply nested.');
    for (const name of subdirs) {
      const sub = await vol.openChildDir(dir, name).catch(() => null); // swapped for a link or removed meanwhile
      if (!sub) continue;
      try {
        await walk(sub, depth + 1);
      } finally {
        await sub.close();
      }
    }
  };
  await vol.withDir([], (root) => walk(root, 0));
  return total;
}

/** What one write operation may still add to the volume. */
export class Budget {
  /** Allocation this operation added so far (whole blocks per file, one block per new directory). */
  private charged = 0;
  /** Allocation this operation frees when it completes (files it replaces). */
  private freed = 0;

  constructor(
    private readonly limit: number,
    /** Usage of the volume apart from this operation. */
    private base: number,
    /** `base` comes from a measure taken for this operation, not from the cache. */
    private fresh: boolean,
    private readonly remeasure: () => Promise<number>,
  ) {}

  static unlimited(): Budget {
    return new Budget(Infinity, 0, true, () => Promise.resolve(0));
  }

  private fits(bytes: number): boolean {
    const margin = this.fresh ? 0 : this.limit * CACHE_MARGIN;
    return this.charged + bytes <= this.limit - margin - this.base + this.freed;
  }

  /** Refuses (`no_space`) unless `bytes` more fit; a cached figure is measured afresh before refusing. */
  async ensure(bytes: number): Promise<void> {
    if (this.fits(bytes)) return;
    if (!this.fresh) {
      // The measure sees what this operation already wrote, which `charged` stands for.
      this.base = (await this.remeasure()) - this.charged;
      this.fresh = true;
      if (this.fits(bytes)) return;
    }
    throw noSpaceError();
  }

  async charge(bytes: number): Promise<void> {
    await this.ensure(bytes);
    this.charged += bytes;
  }

  /** Space a replaced file gives back once the operation completes. */
  credit(bytes: number): void {
    this.freed += bytes;
  }

  /** A meter for one new file: its bytes are charged as whole blocks as they arrive. */
  fileMeter(): Meter {
    let size = 0;
    return async (bytes) => {
      const more = blocksFor(size + bytes) - blocksFor(size);
      if (more > 0) await this.charge(more);
      size += bytes;
    };
  }

  /** The volume's usage once the operation has completed. */
  usageAfter(): number {
    return this.base + this.charged - this.freed;
  }
}

/** Allocated bytes a replaced file gives back: none when another name still links to it. */
export function replacedBytes(st: Stats | null): number {
  return st?.isFile() && st.nlink === 1 ? st.blocks * 512 : 0;
}

/** Per-server usage cache of one daemon; callers serialise the writes of a server themselves. */
export class DiskQuotas {
  private readonly cache = new Map<string, { usage: number; at: number }>();

  constructor(
    private readonly measure: (vol: Volume) => Promise<number> = measureUsage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs a write operation under the server's limit (bytes, 0 = unlimited). A `write` is refused
   * up front on a server already over its limit; a `move` allocates nothing itself (only the
   * directories it creates are charged), so it may tidy up an over-quota server. Must run under
   * the server's write lock: the budget assumes nothing else writes meanwhile.
   */
  async run<T>(
    serverUuid: string,
    vol: Volume,
    limitBytes: number,
    fn: (budget: Budget) => Promise<T>,
    kind: 'write' | 'move' = 'write',
  ): Promise<T> {
    if (limitBytes <= 0) {
      // Nothing to check; a later limit must not trust an old figure.
      try {
        return await fn(Budget.unlimited());
      } finally {
        this.forget(serverUuid);
      }
    }
    const cached = this.cache.get(serverUuid);
    const useCache = cached !== undefined && this.now() - cached.at < CACHE_MS;
    let at = useCache ? cached.at : this.now();
    const remeasure = (): Promise<number> => {
      at = this.now();
      return this.measure(vol);
    };
    const budget = useCache ? new Budget(limitBytes, cached.usage, false, remeasure) : new Budget(limitBytes, await remeasure(), true, remeasure);
    try {
      if (kind === 'write') await budget.ensure(0);
      const result = await fn(budget);
      this.cache.set(serverUuid, { usage: budget.usageAfter(), at });
      return result;
    } catch (error) {
      // A refused write leaves nothing behind, but an odd failure might have: measure next time.
      this.forget(serverUuid);
      throw error;
    }
  }

  /** Drops the cached figure (after deletes, or anything else that changes usage unmetered). */
  forget(serverUuid: string): void {
    this.cache.delete(serverUuid);
  }
}
