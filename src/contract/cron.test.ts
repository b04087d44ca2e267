import { describe, expect, it } from 'vitest';
import { cronErrors, isTimeZone, nextRun, nextRuns, type CronFields } from './cron';

const cron = (minute: string, hour = '*', day_of_month = '*', month = '*', day_of_week = '*'): CronFields => ({
  minute,
  hour,
  day_of_month,
  month,
  day_of_week,
});
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('when a schedule runs', () => {
  it('runs a daily time in the given zone, and the next run is strictly after the moment given', () => {
    expect(iso(nextRuns(cron('0', '4'), 'Europe/Berlin', new Date('2026-11-28T03:00:00Z'), 2))).toEqual([
      '2026-11-29T03:00:00.000Z',
      '2026-11-30T03:00:00.000Z',
    ]);
    expect(nextRun(cron('*/5'), 'UTC', new Date('2026-11-28T10:05:00Z'))?.toISOString()).toBe('2026-11-28T10:10:00.000Z');
    expect(iso(nextRuns(cron('0', '*/6'), 'UTC', new Date('2026-11-28T00:00:00Z'), 3))).toEqual([
      '2026-11-28T06:00:00.000Z',
      '2026-11-28T12:00:00.000Z',
      '2026-11-28T18:00:00.000Z',
    ]);
  });

  it('runs 02:30 once on the day Berlin skips from 02:00 to 03:00, at the next valid time', () => {
    expect(iso(nextRuns(cron('30', '2'), 'Europe/Berlin', new Date('2026-03-28T12:00:00Z'), 3))).toEqual([
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: the first valid time after 02:30
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('runs 02:30 once on the day Berlin has it twice (clocks back from 03:00 to 02:00)', () => {
    expect(iso(nextRuns(cron('30', '2'), 'Europe/Berlin', new Date('2026-10-24T12:00:00Z'), 3))).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, the first of the two
      '2026-10-26T01:30:00.000Z', // 02:30 CET
      '2026-10-27T01:30:00.000Z',
    ]);
    // Every hour on that day: 25 hours, 25 runs, none twice.
    const day = nextRuns(cron('0'), 'Europe/Berlin', new Date('2026-10-24T21:59:00Z'), 25);
    expect(new Set(iso(day)).size).toBe(25);
    expect(day.at(-1)?.toISOString()).toBe('2026-10-25T22:00:00.000Z');
  });

  it('reads a restricted day of the month and day of the week as either, as cron does', () => {
    // The 1st of the month or any Monday, December 2026.
    expect(iso(nextRuns(cron('0', '0', '1', '*', '1'), 'UTC', new Date('2026-11-30T12:00:00Z'), 3))).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2026-12-07T00:00:00.000Z',
      '2026-12-14T00:00:00.000Z',
    ]);
  });

  it('names the field at fault, the month included', () => {
    expect(cronErrors(cron('*/5'))).toEqual([]);
    expect(cronErrors(cron('0', '4', '*', 'JAN-MAR', 'MON-FRI'))).toEqual([]);
    expect(cronErrors(cron('61'))).toEqual([{ field: 'minute', message: 'The minute field is not a valid cron value: "61".' }]);
    expect(cronErrors(cron('0', '0', '*', '13')).map((e) => e.field)).toEqual(['month']);
    expect(cronErrors(cron('0', '24', '32', '*', 'funday')).map((e) => e.field)).toEqual(['hour', 'day_of_month', 'day_of_week']);
    expect(cronErrors(cron('')).map((e) => e.field)).toEqual(['minute']);
    expect(cronErrors(cron('1 2')).map((e) => e.field)).toEqual(['minute']);
  });

  it('knows IANA time zones and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
