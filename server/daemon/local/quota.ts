import { noSpaceError } from '../types';
import type { Volume } from './confined';
import { Budget, CACHE_MARGIN } from './disk-budget';
import { fileMeter, measureUsage, tooManyEntriesError, type Limits, type Meter, type Usage } from './disk-usage';

/*
 * Disk limits on every write path. Usage is what the volume holds (`disk-usage.ts` measures it; a
 * write's `Budget` is in `disk-budget.ts`) on disk: allocated blocks (st.blocks × 512, so a sparse file counts what it really uses), each
 * inode once (a thousand hard links to one file are one file), links never followed, and every
 * entry (the root included) at least one block, so empty files are not free. Besides the bytes,
 * the entries are capped per server, limit or not: a host's inodes can run out before its disk
 * does. Writes of a server run one at a time (the caller holds the server's write lock,
 * `locks.ts`), so "check, then write" cannot be raced by a parallel write, and each write charges
 * its bytes against a budget *while* it streams, in whole blocks, before writing them: a refused
 * write stops at the limit rather than finding out at the end.
 *
 * A body from a client (a write, an upload) is received outside the lock, into the daemon's
 * receive area beside the volumes, against a reservation: bytes and entries held provisionally,
 * charged the same way as they arrive. Every reservation and running budget of a server is held in one
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

export { Budget } from './disk-budget';
export { BLOCK, blocksFor, measureUsage, replacedBytes, tooManyEntriesError } from './disk-usage';
export type { Limits, Meter, Usage } from './disk-usage';

const CACHE_MS = 5_000;

/** A body being received outside the lock, held against the limits until it is placed or dropped. */
export interface Reservation {
  /** What it holds now. */
  held(): Usage;
  /** A meter for one received file; throws `no_space` before the reservation would pass a limit. */
  fileMeter(): Promise<Meter>;
  /** Space the write is expected to free (the file it replaces): provisional, the placing budget checks again. */
  credit(bytes: number): void;
  /** Gives it all back; idempotent. */
  release(): void;
}

type Holder = Pick<Reservation, 'held'>;

interface Cached {
  usage: Usage;
  at: number;
  /** The limits it was taken under: a new limit does not trust a figure taken under another one. */
  limits: Limits;
  /** A measure (not a figure moved by writes), which a reservation trusts without the margin. */
  exact: boolean;
}

/** 0 (or less) is no limit. */
const effective = (given: Limits): Limits => ({
  bytes: given.bytes > 0 ? given.bytes : Infinity,
  entries: given.entries > 0 ? given.entries : Infinity,
});

/** Per-server usage cache of one daemon, and what the server's writes in flight hold against its limits. */
export class DiskQuotas {
  private readonly cache = new Map<string, Cached>();
  /** Each reservation and running budget of a server (what they hold is read at every check). */
  private readonly holders = new Map<string, Set<Holder>>();
  /** Servers whose write (under the lock) is running: a measure taken meanwhile is not cached. */
  private readonly running = new Set<string>();

  constructor(
    private readonly measure: (vol: Volume) => Promise<Usage> = measureUsage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs a write operation under the server's limits (bytes and entries, 0 = unlimited). A `write`
   * is refused up front on a server already over its limit; a `move` allocates nothing itself (only
   * the directories it creates are charged), so it may tidy up an over-quota server; a `replace`
   * (a truncating restore) writes a new volume whose old content all goes at the end, so only what it
   * writes counts, and it too may run on an over-quota server. Must run under
   * the server's write lock: the budget assumes no other write *under the lock* runs meanwhile,
   * and sees the reservations of bodies being received apart from `own` (the body this write places).
   */
  async run<T>(
    serverUuid: string,
    vol: Volume,
    given: Limits,
    fn: (budget: Budget) => Promise<T>,
    kind: 'write' | 'move' | 'replace' = 'write',
    own?: Reservation,
  ): Promise<T> {
    const limits = effective(given);
    if (limits.bytes === Infinity && limits.entries === Infinity) {
      // Nothing to check; a later limit must not trust an old figure.
      try {
        return await fn(Budget.unlimited());
      } finally {
        this.forget(serverUuid);
      }
    }
    const cached = this.fresh(serverUuid, limits);
    let at = cached ? cached.at : this.now();
    const remeasure = (): Promise<Usage> => {
      at = this.now();
      return this.measure(vol);
    };
    let budget: Budget | undefined;
    const others = (): Usage => this.heldBy(serverUuid, budget, own);
    this.running.add(serverUuid);
    try {
      budget = cached ? new Budget(limits, cached.usage, false, remeasure, others) : new Budget(limits, await remeasure(), true, remeasure, others);
      this.hold(serverUuid, budget);
      if (kind === 'write') await budget.ensure(0);
      if (kind === 'replace') budget.replaceAll();
      const result = await fn(budget);
      this.cache.set(serverUuid, { usage: budget.usageAfter(), at, limits, exact: false });
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
   * A reservation for a body received outside the lock: each block and entry is held only if it
   * fits beside the volume's usage and everything the server's other writes hold, measured afresh
   * before a refusal as a budget does. The caller releases it once the body is placed or dropped.
   */
  reserve(serverUuid: string, vol: Volume, given: Limits): Reservation {
    const limits = effective(given);
    const added: Usage = { bytes: 0, entries: 0 };
    const credited: Usage = { bytes: 0, entries: 0 };
    const heldOf = (key: keyof Usage, more = 0): number => Math.max(0, added[key] + more - credited[key]);
    const fits = (usage: Usage, margin: boolean, key: keyof Usage, grows: number): boolean =>
      limits[key] === Infinity || usage[key] + this.heldBy(serverUuid)[key] + grows <= limits[key] * (margin ? 1 - CACHE_MARGIN : 1);
    const charge = async (bytes: number, entries: number): Promise<void> => {
      const grows = { bytes: heldOf('bytes', bytes) - heldOf('bytes'), entries: heldOf('entries', entries) - heldOf('entries') };
      const fitAll = (usage: Usage, margin: boolean): boolean =>
        fits(usage, margin, 'bytes', grows.bytes) && fits(usage, margin, 'entries', grows.entries);
      if (grows.bytes > 0 || grows.entries > 0) {
        const cached = this.fresh(serverUuid, limits);
        if (!cached || !fitAll(cached.usage, !cached.exact)) {
          const at = this.now();
          const usage = await this.measure(vol);
          // A write running under the lock will set its own figure; this measure saw it half done.
          if (!this.running.has(serverUuid)) this.cache.set(serverUuid, { usage, at, limits, exact: true });
          if (!fits(usage, false, 'entries', grows.entries)) throw tooManyEntriesError(limits.entries);
          if (!fits(usage, false, 'bytes', grows.bytes)) throw noSpaceError();
        }
      }
      added.bytes += bytes;
      added.entries += entries;
    };
    const reservation: Reservation = {
      held: () => ({ bytes: heldOf('bytes'), entries: heldOf('entries') }),
      fileMeter: () => fileMeter(charge),
      credit: (freed) => {
        if (freed <= 0) return;
        credited.bytes += freed;
        credited.entries += 1;
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

  private fresh(serverUuid: string, limits: Limits): Cached | undefined {
    const cached = this.cache.get(serverUuid);
    if (!cached || this.now() - cached.at >= CACHE_MS) return undefined;
    return cached.limits.bytes === limits.bytes && cached.limits.entries === limits.entries ? cached : undefined;
  }

  /** What the server's writes in flight hold, apart from `except`. */
  private heldBy(serverUuid: string, ...except: (Holder | undefined)[]): Usage {
    const total = { bytes: 0, entries: 0 };
    for (const holder of this.holders.get(serverUuid) ?? []) {
      if (except.includes(holder)) continue;
      const held = holder.held();
      total.bytes += held.bytes;
      total.entries += held.entries;
    }
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
