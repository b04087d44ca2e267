import { describe, expect, it } from 'vitest';
import { cronInWords, describeCron, type CronFields } from './cron-words';

const cron = (minute: string, hour: string, day_of_week = '*', day_of_month = '*', month = '*'): CronFields => ({
  minute,
  hour,
  day_of_month,
  month,
  day_of_week,
});

describe('cronInWords', () => {
  it.each([
    [cron('0', '4'), 'Every day at 04:00'],
    [cron('0', '*/6'), 'Every 6 hours'],
    [cron('30', '*/2'), 'Every 2 hours at 30 minutes past'],
    [cron('0', '4', '1'), 'Every Monday at 04:00'],
    [cron('15', '22', '0'), 'Every Sunday at 22:15'],
    [cron('15', '22', '7'), 'Every Sunday at 22:15'],
    [cron('0', '9', '1-5'), 'Every weekday at 09:00'],
    [cron('0', '*'), 'Every hour'],
    [cron('*/15', '*'), 'Every 15 minutes'],
    [cron('*', '*'), 'Every minute'],
    [cron('0', '3', '*', '1'), 'Every month on day 1 at 03:00'],
  ])('%o is %s', (c, words) => {
    expect(cronInWords(c, 'en-GB')).toBe(words);
  });

  it('uses the locale for times and day names', () => {
    expect(cronInWords(cron('0', '16', '1'), 'en-US')).toBe('Every Monday at 04:00 PM');
    expect(cronInWords(cron('0', '4', '1'), 'de-DE')).toBe('Every Montag at 04:00');
  });

  it.each([cron('0', '4', '1,3'), cron('0', '4', '*', '*', '6'), cron('0-10', '4'), cron('0', '25'), cron('0', '4', '*', '1', '1')])(
    '%o has no wording and is shown as cron',
    (c) => {
      expect(cronInWords(c, 'en-GB')).toBeNull();
      expect(describeCron(c, 'en-GB')).toBe([c.minute, c.hour, c.day_of_month, c.month, c.day_of_week].join(' '));
    },
  );
});
