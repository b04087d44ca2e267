import { useEffect, useState } from 'react';
import type { BackupThrottleState } from '../../contract/backups';

/** "10 minutes", "1 hour", "90 seconds": the throttle's window in words. */
function windowInWords(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'an hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'a minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** "14:05", or "14:05:30" when the seconds matter (a wait under two minutes). */
function timeOf(at: number, now: number): string {
  const seconds = at - now < 120_000;
  return new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: seconds ? '2-digit' : undefined }).format(at);
}

/**
 * Why "Create backup" cannot be used now, or null when it can: the same rules, in the same order,
 * as the panel's answer to a create (the throttle's 429 before the limit's 400), so the button never
 * opens a dialog that is bound to be refused. `throttle` is the panel's `meta.backup_throttle`, an
 * Aerie extra: without it the 429 still says when to try again.
 */
export function createBlockedBy(
  used: number,
  limit: number | null,
  blocking: string | null,
  throttle: BackupThrottleState | undefined = undefined,
  now: number = Date.now(),
): string | null {
  if (limit === 0) return 'Backups are disabled for this server.';
  if (blocking) return `Backups cannot be made while ${blocking}.`;
  const availableAt = throttle?.available_at ? Date.parse(throttle.available_at) : Number.NaN;
  if (throttle && availableAt > now) {
    return `Only ${throttle.limit} backups may be started within ${windowInWords(throttle.period)}: the next one can start at ${timeOf(availableAt, now)}.`;
  }
  if (limit !== null && used >= limit) return `This server has reached its limit of ${limit} backups. Delete one to make room.`;
  return null;
}

/** The time now, read again when the throttle opens, so the button turns on by itself then. */
export function useNowUntil(availableAt: string | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  const at = availableAt ? Date.parse(availableAt) : Number.NaN;
  useEffect(() => {
    if (!(at > Date.now())) return;
    const timer = setTimeout(() => setNow(Date.now()), at - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [at]);
  return Math.max(now, Date.now());
}
