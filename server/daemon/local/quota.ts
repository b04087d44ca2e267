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
 * A body from a client (a write, an upload) is received outside the lock, into the daemon's
 * receive area beside the volumes, against a reservation: bytes held provisionally, charged the
 * same way as they arrive. Every reservation and running budget of a server is held in one
 * registry, and each of them fits only beside all the others, so concurrent uploads and writes
 * cannot together pass the limit. Placing a received file charges its real size under the lock
 * and gives its reservation back.
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
    /** What the server's other writes hold meanwhile (reservations of bodies being received). */
    private readonly others: () => number = () => 0,
  ) {}

  static unlimited(): Budget {
    return new Budget(Infinity, 0, true, () => Promise.resolve(0));
  }

  private fits(bytes: number): boolean {
    const margin = this.fresh ? 0 : this.limit * CACHE_MARGIN;
    return this.charged + bytes <= this.limit - margin - this.base - this.others() + this.freed;
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
    return blockMeter((bytes) => this.charge(bytes));
  }

  /** What this operation holds against the limit while it runs, as the other writes see it. */
  held(): number {
    return this.charged;
  }

  /** The volume's usage once the operation has completed. */
  usageAfter(): number {
    return this.base + this.charged - this.freed;
  }
}

/** Charges `charge` the whole blocks of one new file as its bytes arrive. */
function blockMeter(charge: (bytes: number) => Promise<void>): Meter {
  let size = 0;
  return async (bytes) => {
    const more = blocksFor(size + bytes) - blocksFor(size);
    if (more > 0) await charge(more);
    size += bytes;
  };
}

/** Bytes of a body being received outside the lock, held against the limit until it is placed or dropped. */
export interface Reservation {
  /** The bytes it holds now. */
  held(): number;
  /** A meter for one received file; throws `no_space` before the reservation would pass the limit. */
  fileMeter(): Meter;
  /** Space the write is expected to free (the files it replaces): provisional, the placing budget checks again. */
  credit(bytes: number): void;
  /** Gives the bytes back; idempotent. */
  release(): void;
}

/** Allocated bytes a replaced file gives back: none when another name still links to it. */
export function replacedBytes(st: Stats | null): number {
  return st?.isFile() && st.nlink === 1 ? st.blocks * 512 : 0;
}

type Holder = Pick<Reservation, 'held'>;

/** Per-server usage cache of one daemon, and what the server's writes in flight hold against its limit. */
export class DiskQuotas {
  /** `exact`: a measure (not a figure moved by writes), which a reservation trusts without the margin. */
  private readonly cache = new Map<string, { usage: number; at: number; exact: boolean }>();
  /** Each reservation and running budget of a server (what they hold is read at every check). */
  private readonly holders = new Map<string, Set<Holder>>();
  /** Servers whose write (under the lock) is running: a measure taken meanwhile is not cached. */
  private readonly running = new Set<string>();

  constructor(
    private readonly measure: (vol: Volume) => Promise<number> = measureUsage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs a write operation under the server's limit (bytes, 0 = unlimited). A `write` is refused
   * up front on a server already over its limit; a `move` allocates nothing itself (only the
   * directories it creates are charged), so it may tidy up an over-quota server. Must run under
   * the server's write lock: the budget assumes no other write *under the lock* runs meanwhile,
   * and sees the reservations of bodies being received apart from `own` (the body this write places).
   */
  async run<T>(
    serverUuid: string,
    vol: Volume,
    limitBytes: number,
    fn: (budget: Budget) => Promise<T>,
    kind: 'write' | 'move' = 'write',
    own?: Reservation,
  ): Promise<T> {
    if (limitBytes <= 0) {
      // Nothing to check; a later limit must not trust an old figure.
      try {
        return await fn(Budget.unlimited());
      } finally {
        this.forget(serverUuid);
      }
    }
    const cached = this.fresh(serverUuid);
    let at = cached ? cached.at : this.now();
    const remeasure = (): Promise<number> => {
      at = this.now();
      return this.measure(vol);
    };
    let budget: Budget | undefined;
    const others = (): number => this.heldBy(serverUuid, budget, own);
    this.running.add(serverUuid);
    try {
      budget = cached
        ? new Budget(limitBytes, cached.usage, false, remeasure, others)
        : new Budget(limitBytes, await remeasure(), true, remeasure, others);
      this.hold(serverUuid, budget);
      if (kind === 'write') await budget.ensure(0);
      const result = await fn(budget);
      this.cache.set(serverUuid, { usage: budget.usageAfter(), at, exact: false });
      return result;
    } catch (error) {
      // A refused write leaves nothing behind, but an odd failure might have: measure next time.
      this.forget(serverUuid);
      throw error;
    } finally {
      this.running.delete(serverUuid);
      if (budget) this.unhold(serverUuid, budget);
    }
  }

  /**
   * A reservation for a body received outside the lock: each block is held only if it fits beside
   * the volume's usage and everything the server's other writes hold, measured afresh before a
   * refusal as a budget does. The caller releases it once the body is placed or dropped.
   */
  reserve(serverUuid: string, vol: Volume, limitBytes: number): Reservation {
    let bytes = 0;
    let credited = 0;
    const held = (): number => Math.max(0, bytes - credited);
    const fits = (usage: number, margin: number, more: number): boolean => usage + this.heldBy(serverUuid) + more <= limitBytes - margin;
    const charge = async (more: number): Promise<void> => {
      const grows = Math.max(0, bytes + more - credited) - held();
      if (limitBytes > 0 && grows > 0) {
        const cached = this.fresh(serverUuid);
        if (!cached || !fits(cached.usage, cached.exact ? 0 : limitBytes * CACHE_MARGIN, grows)) {
          const at = this.now();
          const usage = await this.measure(vol);
          // A write running under the lock will set its own figure; this measure saw it half done.
          if (!this.running.has(serverUuid)) this.cache.set(serverUuid, { usage, at, exact: true });
          if (!fits(usage, 0, grows)) throw noSpaceError();
        }
      }
      bytes += more;
    };
    const reservation: Reservation = {
      held,
      fileMeter: () => blockMeter(charge),
      credit: (freed) => {
        credited += freed;
      },
      release: () => this.unhold(serverUuid, reservation),
    };
    this.hold(serverUuid, reservation);
    return reservation;
  }

  /** Drops the cached figure (after deletes, or anything else that changes usage unmetered). */
  forget(serverUuid: string): void {
    this.cache.delete(serverUuid);
  }

  private fresh(serverUuid: string): { usage: number; at: number; exact: boolean } | undefined {
    const cached = this.cache.get(serverUuid);
    return cached !== undefined && this.now() - cached.at < CACHE_MS ? cached : undefined;
  }

  /** What the server's writes in flight hold, apart from `except`. */
  private heldBy(serverUuid: string, ...except: (Holder | undefined)[]): number {
    let total = 0;
    for (const holder of this.holders.get(serverUuid) ?? []) if (!except.includes(holder)) total += holder.held();
    return total;
  }

  private hold(serverUuid: string, holder: Holder): void {
    let set = this.holders.get(serverUuid);
    if (!set) this.holders.set(serverUuid, (set = new Set()));
    set.add(holder);
  }

  private unhold(serverUuid: string, holder: Holder): void {
    const set = this.holders.get(serverUuid);
    set?.delete(holder);
    if (set?.size === 0) this.holders.delete(serverUuid);
  }
}
