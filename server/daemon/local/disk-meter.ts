/** How long a disk figure is shown before the volume is measured again. */
const DISK_FIGURE_MS = 10_000;
/**
 * A running server with a disk limit is measured this often at least, so its own writes are caught
 * within seconds (Wings checks every 150 s by default) — but never more than a tenth of the time, a
 * volume of many files taking long to measure.
 */
const DISK_CHECK_MS = 2_000;

/** One server's disk figure: the last measure of its volume, when it was taken, and how long that took. */
export class DiskMeter {
  private last: { bytes: number; at: number; took: number } | null = null;

  constructor(
    private readonly measure: (() => Promise<number>) | undefined,
    private readonly now: () => number,
  ) {}

  /** The last figure (0 before the first). */
  get bytes(): number {
    return this.last?.bytes ?? 0;
  }

  /** The figure, measured again once the last is too old: `watched` while a running server's limit is watched. */
  async figure(watched: boolean): Promise<number> {
    const every = watched ? Math.max(DISK_CHECK_MS, 10 * (this.last?.took ?? 0)) : DISK_FIGURE_MS;
    if (!this.last || this.now() - this.last.at >= every) return this.measureNow();
    return this.last.bytes;
  }

  /** Measures the volume now (the last figure when it cannot be measured). */
  async measureNow(): Promise<number> {
    if (!this.measure) return 0;
    const at = this.now();
    const started = performance.now();
    const bytes = await this.measure().catch(() => this.bytes);
    this.last = { bytes, at, took: performance.now() - started };
    return bytes;
  }
}
