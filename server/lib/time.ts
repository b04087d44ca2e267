// Shared with the SPA's schedule editor.
export { isTimeZone } from '../../src/contract/cron';

/** ISO 8601 with a numeric offset, as the reference panel prints times: `2024-10-24T12:04:30+00:00`. */
export function isoOffset(value: Date | string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  // Sliced, not matched with a regex: listings format tens of thousands of these.
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move. */
export function fixedClock(start: Date | string = '2026-01-01T00:00:00Z'): Clock & { advance(ms: number): void; set(d: Date | string): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
    set: (d) => {
      t = new Date(d).getTime();
    },
  };
}

/** The machine's own time zone, the default for `APP_TIMEZONE`. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
