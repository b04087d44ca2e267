// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '../../lib/i18n/runtime';
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

  it('uses the locale for times', () => {
    expect(cronInWords(cron('0', '16', '1'), 'en-US')).toBe('Every Monday at 04:00 PM');
  });

  describe('in another language', () => {
    afterEach(() => changeLocale('en'));

    it('says it in that language, the weekday declined as the sentence needs', async () => {
      await changeLocale('de');
      expect(cronInWords(cron('0', '4', '1'), 'de')).toBe('Jeden Montag um 04:00');
      expect(cronInWords(cron('*/15', '*'), 'de')).toBe('Alle 15 Minuten');
      await changeLocale('ru');
      expect(cronInWords(cron('0', '4', '3'), 'ru')).toBe('Каждую среду в 04:00');
      expect(cronInWords(cron('0', '*/2'), 'ru')).toBe('Каждые 2 часа');
      expect(cronInWords(cron('0', '*/5'), 'ru')).toBe('Каждые 5 часов');
      await changeLocale('pl');
      expect(cronInWords(cron('0', '4', '0'), 'pl')).toBe('W każdą niedzielę o 04:00');
    });
  });

  it.each([cron('0', '4', '1,3'), cron('0', '4', '*', '*', '6'), cron('0-10', '4'), cron('0', '25'), cron('0', '4', '*', '1', '1')])(
    '%o has no wording and is shown as cron',
    (c) => {
      expect(cronInWords(c, 'en-GB')).toBeNull();
      expect(describeCron(c, 'en-GB')).toBe([c.minute, c.hour, c.day_of_month, c.month, c.day_of_week].join(' '));
    },
  );
});
