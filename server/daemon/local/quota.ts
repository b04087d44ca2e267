import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { MAX_DEPTH, type Dir, type Volume } from './confined';
import { lstatEach } from './listing';
import { DaemonError, noSpaceError } from '../types';

/*
 * Disk limits on every write path. Usage is what the volume holds
 * on disk: allocated blocks (st.blocks × 512, so a sparse file counts what it really uses), each
 * inode once (a thousand hard links to one file are one file), links never followed, and every
 * entry (the root included) at least one block, so empty files are not free. Besides the bytes,
 * the entries are capped per server, limit or not: a host's inodes can run out before its disk
 * does. Writes of a server run one at a time (the caller holds the server's write lock,
 * `locks.ts`), so "check,
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

/** What a volume holds: allocated bytes and entries (files, directories, links; each inode once). */
export interface Usage {
  bytes: number;
  entries: number;
}

/** What a server may hold (`Infinity`: no limit). */
export interface Limits {
  bytes: number;
  entries: number;
}

export const tooManyEntriesError = (max: number): DaemonError =>
  new DaemonError('no_space', `The server has too many files: it may hold at most ${max.toLocaleString('en-US')} files and folders.`);

/** What one entry takes on disk: its blocks, and at least one. */
const allocated = (st: Stats): number => Math.max(st.blocks * 512, BLOCK);

/** Usage of the volume, its root included, each inode once, links never followed. */
export async function measureUsage(vol: Volume): Promise<Usage> {
  const seen = new Set<string>();
  let total = 0;
  let entries = 0;
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
      total += allocated(st);
      entries += 1;
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
  await vol.withDir([], async (root) => {
    total += allocated(await root.handle.stat());
    entries += 1;
    await walk(root, 0);
  });
  return { bytes: total, entries };
}

/** What one write operation may still add to the volume. */
export class Budget {
  /** Allocation this operation added so far (whole blocks per file, one block per new directory), and its new entries. */
  private charged: Usage = { bytes: 0, entries: 0 };
  /** What this operation frees when it completes (files it replaces). */
  private freed: Usage = { bytes: 0, entries: 0 };

  constructor(
    private readonly limits: Limits,
    /** Usage of the volume apart from this operation. */
    private base: Usage,
    /** `base` comes from a measure taken for this operation, not from the cache. */
    private fresh: boolean,
    private readonly remeasure: () => Promise<Usage>,
  ) {}

  static unlimited(): Budget {
    return new Budget({ bytes: Infinity, entries: Infinity }, { bytes: 0, entries: 0 }, true, () => Promise.resolve({ bytes: 0, entries: 0 }));
  }

  private fits(key: keyof Usage, more: number): boolean {
    const limit = this.limits[key];
    if (limit === Infinity) return true;
    const margin = this.fresh ? 0 : limit * CACHE_MARGIN;
    return this.charged[key] + more <= limit - margin - this.base[key] + this.freed[key];
  }

  /**
   * Refuses (`no_space`) unless `bytes` and `entries` more fit; a cached figure is measured afresh
   * before refusing.
   */
  async ensure(bytes: number, entries = 0): Promise<void> {
    if (this.fits('bytes', bytes) && this.fits('entries', entries)) return;
    if (!this.fresh) {
      // The measure sees what this operation already wrote, which `charged` stands for.
      const now = await this.remeasure();
      this.base = { bytes: now.bytes - this.charged.bytes, entries: now.entries - this.charged.entries };
      this.fresh = true;
    }
    if (!this.fits('entries', entries)) throw tooManyEntriesError(this.limits.entries);
    if (!this.fits('bytes', bytes)) throw noSpaceError();
  }

  async charge(bytes: number, entries = 0): Promise<void> {
    await this.ensure(bytes, entries);
    this.charged.bytes += bytes;
    this.charged.entries += entries;
  }

  /** Charges a new directory: one block, one entry. */
  newDirectory(): Promise<void> {
    return this.charge(BLOCK, 1);
  }

  /** What a replaced file gives back once the operation completes (`replacedBytes`: 0 when nothing). */
  credit(bytes: number): void {
    if (bytes <= 0) return;
    this.freed.bytes += bytes;
    this.freed.entries += 1;
  }

  /**
   * A meter for one new file, charged its entry and first block now (an empty file is not free);
   * its bytes are charged as whole blocks as they arrive.
   */
  async fileMeter(): Promise<Meter> {
    await this.charge(BLOCK, 1);
    let size = 0;
    return async (bytes) => {
      const more = Math.max(blocksFor(size + bytes), BLOCK) - Math.max(blocksFor(size), BLOCK);
      if (more > 0) await this.charge(more);
      size += bytes;
    };
  }

  /** The volume's usage once the operation has completed. */
  usageAfter(): Usage {
    return {
      bytes: this.base.bytes + this.charged.bytes - this.freed.bytes,
      entries: this.base.entries + this.charged.entries - this.freed.entries,
    };
  }
}

/** What a replaced file gives back (its blocks, at least one): none when another name still links to it. */
export function replacedBytes(st: Stats | null): number {
  return st?.isFile() && st.nlink === 1 ? allocated(st) : 0;
}

/** Per-server usage cache of one daemon; callers serialise the writes of a server themselves. */
export class DiskQuotas {
  private readonly cache = new Map<string, { usage: Usage; at: number; limits: Limits }>();

  constructor(
    private readonly measure: (vol: Volume) => Promise<Usage> = measureUsage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs a write operation under the server's limits (bytes and entries, 0 = unlimited). A `write` is refused
   * up front on a server already over its limit; a `move` allocates nothing itself (only the
   * directories it creates are charged), so it may tidy up an over-quota server. Must run under
   * the server's write lock: the budget assumes nothing else writes meanwhile.
   */
  async run<T>(serverUuid: string, vol: Volume, given: Limits, fn: (budget: Budget) => Promise<T>, kind: 'write' | 'move' = 'write'): Promise<T> {
    const limits = { bytes: given.bytes > 0 ? given.bytes : Infinity, entries: given.entries > 0 ? given.entries : Infinity };
    if (limits.bytes === Infinity && limits.entries === Infinity) {
      // Nothing to check; a later limit must not trust an old figure.
      try {
        return await fn(Budget.unlimited());
      } finally {
        this.forget(serverUuid);
      }
    }
    const cached = this.cache.get(serverUuid);
    // A new limit does not trust a figure taken under another one: it is measured afresh.
    const sameLimits = cached?.limits.bytes === limits.bytes && cached.limits.entries === limits.entries;
    const useCache = cached !== undefined && sameLimits && this.now() - cached.at < CACHE_MS;
    let at = useCache ? cached.at : this.now();
    const remeasure = (): Promise<Usage> => {
      at = this.now();
      return this.measure(vol);
    };
    const budget = useCache ? new Budget(limits, cached.usage, false, remeasure) : new Budget(limits, await remeasure(), true, remeasure);
    try {
      if (kind === 'write') await budget.ensure(0);
      const result = await fn(budget);
      this.cache.set(serverUuid, { usage: budget.usageAfter(), at, limits });
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
