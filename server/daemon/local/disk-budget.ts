import { noSpaceError } from '../types';
import { BLOCK, blocksFor, fileMeter, NOTHING, tooManyEntriesError, type Limits, type Meter, type Usage } from './disk-usage';

/* One write operation's budget under the server's limits (see `quota.ts` for how it is checked). */

/** The share of the limit a cached figure is not trusted with. */
export const CACHE_MARGIN = 0.1;

/** What one write operation may still add to the volume. */
export class Budget {
  /** Allocation this operation added so far (whole blocks per file, one block per new directory), and its new entries. */
  private charged: Usage = { bytes: 0, entries: 0 };
  /** What this operation frees when it completes (files it replaces). */
  private freed: Usage = { bytes: 0, entries: 0 };
  /** The operation replaces the whole volume (`replaceAll`): everything else is freed. */
  private replacing = false;

  constructor(
    private readonly limits: Limits,
    /** Usage of the volume apart from this operation. */
    private base: Usage,
    /** `base` comes from a measure taken for this operation, not from the cache. */
    private fresh: boolean,
    private readonly remeasure: () => Promise<Usage>,
    /** What the server's other writes hold meanwhile (reservations of bodies being received). */
    private readonly others: () => Usage = () => NOTHING,
  ) {}

  static unlimited(): Budget {
    return new Budget({ bytes: Infinity, entries: Infinity }, NOTHING, true, () => Promise.resolve(NOTHING));
  }

  private fits(key: keyof Usage, more: number): boolean {
    const limit = this.limits[key];
    if (limit === Infinity) return true;
    const margin = this.fresh ? 0 : limit * CACHE_MARGIN;
    return this.charged[key] + more <= limit - margin - this.base[key] - this.others()[key] + this.freedOf(key);
  }

  private freedOf(key: keyof Usage): number {
    return this.replacing ? this.base[key] : this.freed[key];
  }

  /** Everything the volume holds apart from this operation goes when it completes: only what it adds counts. */
  replaceAll(): void {
    this.replacing = true;
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

  /** Charges a new file of `size` bytes, received already: its blocks (at least one) and its entry. */
  newFile(size: number): Promise<void> {
    return this.charge(Math.max(blocksFor(size), BLOCK), 1);
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
  fileMeter(): Promise<Meter> {
    return fileMeter((bytes, entries) => this.charge(bytes, entries));
  }

  /** What this operation holds against the limits while it runs, as the other writes see it. */
  held(): Usage {
    return this.charged;
  }

  /** The volume's usage once the operation has completed. */
  usageAfter(): Usage {
    return {
      bytes: this.base.bytes + this.charged.bytes - this.freedOf('bytes'),
      entries: this.base.entries + this.charged.entries - this.freedOf('entries'),
    };
  }
}
