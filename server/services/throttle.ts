import type { Clock } from '../lib/time';

export interface ThrottleLimit {
  /** Hits allowed inside one window. */
  max: number;
  windowMs: number;
}

/**
 * In-memory sliding-window counters keyed by strings (an IP, a typed login, a user id).
 * Each key has its own bucket: one global bucket would let one client lock everyone out
 *. One instance per app, so tests and apps never share state.
 */
export class SlidingWindowThrottle {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: ThrottleLimit,
    // Bounds memory when a flood uses many keys (many source addresses, many typed logins).
    private readonly maxKeys = 50_000,
  ) {}

  /** Milliseconds until `key` may act again; 0 when it is under its limit now. */
  retryAfterMs(key: string): number {
    const now = this.clock.now().getTime();
    const recent = this.recent(key, now);
    if (recent.length < this.limit.max) return 0;
    // The bucket opens once enough of the oldest hits have slid out of the window.
    const blocking = recent[recent.length - this.limit.max] ?? now;
    return Math.max(1, blocking + this.limit.windowMs - now);
  }

  hit(key: string): void {
    const now = this.clock.now().getTime();
    const recent = this.recent(key, now);
    recent.push(now);
    // Only the newest `max` hits can ever decide a retry time.
    if (recent.length > this.limit.max) recent.splice(0, recent.length - this.limit.max);
    this.hits.delete(key);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.sweep(now);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const cutoff = now - this.limit.windowMs;
    return (this.hits.get(key) ?? []).filter((t) => t > cutoff);
  }

  private sweep(now: number): void {
    const cutoff = now - this.limit.windowMs;
    for (const [key, times] of this.hits) {
      if ((times[times.length - 1] ?? 0) <= cutoff) this.hits.delete(key);
    }
    // Still too many live keys: drop the least recently hit (Map keeps insertion order, and
    // `hit` re-inserts), accepting that those buckets restart rather than growing without bound.
    // Going to 90% leaves headroom, so a flood does not pay for a full sweep on every hit.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of this.hits.keys()) {
      if (this.hits.size <= target) break;
      this.hits.delete(key);
    }
  }
}
