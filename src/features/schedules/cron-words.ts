import type { Schedule } from '../../contract/schedules';
import { t } from './messages';

/*
 * A schedule's cron said in words ("Every day at 04:00", "Every 6 hours", "Every Monday at 04:00")
 * for the common shapes, in the language being shown (each shape is one message, the weekday a
 * select in it, since languages decline it); anything else is shown as its five fields, which is
 * exact if less friendly. Callers pass `useLocale()` so the times follow the language too.
 */

export type CronFields = Schedule['cron'];

const NUMBER = /^\d{1,2}$/;
const STEP = /^\*\/(\d{1,2})$/;

/** The five fields in cron's order (minute hour day-of-month month day-of-week). */
export const cronText = (c: CronFields) => [c.minute, c.hour, c.day_of_month, c.month, c.day_of_week].join(' ');

function time(hour: number, minute: number, locale: string | undefined): string {
  // A fixed date: only its hour and minute are read, in UTC so no zone shifts them.
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1, hour, minute));
}

/** A weekday's name (0 and 7 are Sunday) on its own, as in a list to choose from. */
export function weekdayName(day: number, locale: string | undefined): string {
  // 2024-01-07 was a Sunday (cron's 0 and 7).
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 7 + (day % 7)));
}

/** The cron in words, or null when it has no simple wording. */
export function cronInWords(c: CronFields, locale?: string): string | null {
  const everyDay = c.day_of_month === '*' && c.month === '*';
  if (!everyDay) {
    if (NUMBER.test(c.day_of_month) && c.month === '*' && c.day_of_week === '*' && NUMBER.test(c.hour) && NUMBER.test(c.minute))
      return t('schedules.cron.monthly', { day: Number(c.day_of_month), time: time(Number(c.hour), Number(c.minute), locale) });
    return null;
  }
  const minuteStep = STEP.exec(c.minute);
  if (c.day_of_week === '*' && c.hour === '*') {
    if (c.minute === '*') return t('schedules.cron.everyMinute');
    if (minuteStep) return t('schedules.cron.everyMinutes', { n: Number(minuteStep[1]) });
    if (NUMBER.test(c.minute))
      return Number(c.minute) === 0 ? t('schedules.cron.everyHour') : t('schedules.cron.hourPast', { minute: Number(c.minute) });
    return null;
  }
  if (!NUMBER.test(c.minute)) return null;
  const hourStep = STEP.exec(c.hour);
  if (hourStep && c.day_of_week === '*') {
    const n = Number(hourStep[1]);
    return Number(c.minute) === 0 ? t('schedules.cron.everyHours', { n }) : t('schedules.cron.everyHoursPast', { n, minute: Number(c.minute) });
  }
  if (!NUMBER.test(c.hour) || Number(c.hour) > 23 || Number(c.minute) > 59) return null;
  const at = time(Number(c.hour), Number(c.minute), locale);
  if (c.day_of_week === '*') return t('schedules.cron.daily', { time: at });
  if (/^[0-7]$/.test(c.day_of_week)) return t('schedules.cron.weekly', { day: String(Number(c.day_of_week) % 7), time: at });
  if (c.day_of_week === '1-5') return t('schedules.cron.weekdays', { time: at });
  return null;
}

/** The words, or the five fields when there are none. */
export const describeCron = (c: CronFields, locale?: string) => cronInWords(c, locale) ?? cronText(c);
