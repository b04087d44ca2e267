import { Cron } from 'croner';

/*
 * When a schedule runs (issue 23): its five cron fields evaluated by croner in a time zone, the
 * panel's or the schedule's own. Wall-clock times are what owners mean ("every day at 04:00"), so
 * a daylight-saving change neither skips nor repeats a run: a time the day does not have runs
 * once at the next valid time, a time the day has twice runs once. The reference panel computed
 * its next run in one zone and compared it in another, and its schedules fired at the wrong hour.
 *
 * The panel's checks and the schedule editor's preview are this one module, so what the editor
 * says matches what the panel accepts and runs. Not exported from the contract's index: only the
 * editor imports it in the SPA, keeping croner in the lazily loaded schedules chunk.
 */

export interface CronFields {
  minute: string;
  hour: string;
  day_of_month: string;
  month: string;
  day_of_week: string;
}

export const CRON_FIELDS: readonly (keyof CronFields)[] = ['minute', 'hour', 'day_of_month', 'month', 'day_of_week'];

const FIELD_WORDS: Record<keyof CronFields, string> = {
  minute: 'minute',
  hour: 'hour',
  day_of_month: 'day of the month',
  month: 'month',
  day_of_week: 'day of the week',
};

/** The five fields as one expression, in cron's order. */
export function cronExpression(fields: CronFields): string {
  return CRON_FIELDS.map((k) => fields[k].trim()).join(' ');
}

function parse(expression: string, timezone: string): Cron {
  // Vixie cron's rule, as the reference's parser: a day-of-month and a day-of-week both restricted means either.
  return new Cron(expression, { timezone, paused: true, legacyMode: true });
}

/**
 * What is wrong with `fields`, field by field (empty when they make a valid expression): each
 * field is tried alone among wildcards, so the message names the one at fault.
 */
export function cronErrors(fields: CronFields): { field: keyof CronFields; message: string }[] {
  const errors: { field: keyof CronFields; message: string }[] = [];
  for (const field of CRON_FIELDS) {
    const value = fields[field].trim();
    const alone = CRON_FIELDS.map((k) => (k === field ? value : '*')).join(' ');
    if (value === '' || /\s/.test(value) || !parses(alone)) {
      errors.push({ field, message: `The ${FIELD_WORDS[field]} field is not a valid cron value: "${value}".` });
    }
  }
  if (errors.length === 0 && !parses(cronExpression(fields))) {
    errors.push({ field: 'minute', message: 'The cron data provided does not evaluate to a valid expression.' });
  }
  return errors;
}

function parses(expression: string): boolean {
  try {
    parse(expression, 'UTC');
    return true;
  } catch {
    return false;
  }
}

/** The first `count` runs after `after` (never at it), in `timezone`; fewer when the expression has no more (30 February). */
export function nextRuns(fields: CronFields, timezone: string, after: Date, count: number): Date[] {
  return parse(cronExpression(fields), timezone).nextRuns(count, after);
}

/** The next run after `after`, or null when there is none. */
export function nextRun(fields: CronFields, timezone: string, after: Date): Date | null {
  return nextRuns(fields, timezone, after, 1)[0] ?? null;
}

/** True when `zone` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
