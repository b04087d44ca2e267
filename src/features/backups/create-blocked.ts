import { useEffect, useState } from 'react';
import type { BackupThrottleState } from '../../contract/backups';
import { t } from './messages';

/** "10 minutes", "an hour", "90 seconds": the throttle's window in words. */
function windowInWords(seconds: number): string {
  if (seconds % 3600 === 0) return t('backups.window.hours', { count: seconds / 3600 });
  if (seconds % 60 === 0) return t('backups.window.minutes', { count: seconds / 60 });
  return t('backups.window.seconds', { count: seconds });
}

/** "14:05", or "14:05:30" when the seconds matter (a wait under two minutes). */
function timeOf(at: number, now: number, locale: string | undefined): string {
  const seconds = at - now < 120_000;
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: seconds ? '2-digit' : undefined }).format(at);
}

/**
 * Why "Create backup" cannot be used now, or null when it can: the same rules, in the same order,
 * as the panel's answer to a create (the throttle's 429 before the limit's 400), so the button never
 * opens a dialog that is bound to be refused. `throttle` is the panel's `meta.backup_throttle`, an
 * Aerie extra: without it the 429 still says when to try again. In the language of the moment.
 */
export function createBlockedBy(
  used: number,
  limit: number | null,
  blocking: string | null,
  throttle: BackupThrottleState | undefined = undefined,
  now: number = Date.now(),
  locale?: string,
): string | null {
  if (limit === 0) return t('backups.createBlocked.disabled');
  if (blocking) return t('backups.createBlocked.unavailable', { reason: blocking });
  const availableAt = throttle?.available_at ? Date.parse(throttle.available_at) : Number.NaN;
  if (throttle && availableAt > now) {
    return t('backups.createBlocked.throttled', {
      limit: throttle.limit,
      window: windowInWords(throttle.period),
      time: timeOf(availableAt, now, locale),
    });
  }
  if (limit !== null && used >= limit) return t('backups.createBlocked.limit', { limit });
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
