import { CRON_FIELDS, cronErrors, isTimeZone, nextRuns } from '../../contract/cron';
import type { CronFields } from './cron-words';

/*
 * The editor's checks and preview: the panel's own cron module (croner, Vixie cron's day rule),
 * so what it says matches what the panel will accept and run. Imported only by the editor, which
 * is in the lazily loaded schedules chunk.
 */

export { CRON_FIELDS, isTimeZone };

/** A message per field at fault (each tried alone among wildcards, as the panel does). */
export function cronFieldErrors(fields: CronFields): Partial<Record<keyof CronFields, string>> {
  return Object.fromEntries(cronErrors(fields).map((error) => [error.field, error.message]));
}

/** The next `count` runs from now in `timezone`, or [] when the fields or zone are bad. */
export function previewRuns(fields: CronFields, timezone: string, count = 5, after = new Date()): Date[] {
  if (Object.keys(cronFieldErrors(fields)).length > 0 || !isTimeZone(timezone)) return [];
  return nextRuns(fields, timezone, after, count);
}
