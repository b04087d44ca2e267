import { Cron } from 'croner';
import type { CronFields } from './cron-words';

/*
 * The editor's checks and preview, in the browser with the panel's own library and options
 * (croner, Vixie cron's day rule), so what it says matches what the panel will accept and run.
 * Imported only by the editor, which is in the lazily loaded schedules chunk.
 */

export const CRON_FIELDS = ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'] as const;
const WORDS: Record<keyof CronFields, string> = {
  minute: 'minute',
  hour: 'hour',
  day_of_month: 'day of the month',
  month: 'month',
  day_of_week: 'day of the week',
};

const parse = (expression: string, timezone: string) => new Cron(expression, { timezone, paused: true, legacyMode: true });

function parses(expression: string): boolean {
  try {
    parse(expression, 'UTC');
    return true;
  } catch {
    return false;
  }
}

/** A message per field at fault (each tried alone among wildcards, as the panel does). */
export function cronFieldErrors(fields: CronFields): Partial<Record<keyof CronFields, string>> {
  const errors: Partial<Record<keyof CronFields, string>> = {};
  for (const field of CRON_FIELDS) {
    const value = fields[field].trim();
    const alone = CRON_FIELDS.map((k) => (k === field ? value : '*')).join(' ');
    if (value === '' || /\s/.test(value) || !parses(alone)) errors[field] = `The ${WORDS[field]} field is not a valid cron value: "${value}".`;
  }
  if (Object.keys(errors).length === 0 && !parses(CRON_FIELDS.map((k) => fields[k].trim()).join(' ')))
    errors.minute = 'The cron data provided does not evaluate to a valid expression.';
  return errors;
}

/** Whether the browser knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The next `count` runs from now in `timezone`, or [] when the fields or zone are bad. */
export function previewRuns(fields: CronFields, timezone: string, count = 5, after = new Date()): Date[] {
  if (Object.keys(cronFieldErrors(fields)).length > 0 || !isTimeZone(timezone)) return [];
  return parse(CRON_FIELDS.map((k) => fields[k].trim()).join(' '), timezone).nextRuns(count, after);
}
