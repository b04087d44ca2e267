// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '../../lib/i18n/runtime';
import { retryHint } from './api';
import { createBlockedBy } from './create-blocked';

afterEach(() => changeLocale('en'));

describe('the backups area in another language', () => {
  it('says how long to wait with the language’s plural forms', async () => {
    await changeLocale('ru');
    expect([1, 3, 5, 21].map(retryHint)).toEqual([
      'Повторите попытку через 1 секунду.',
      'Повторите попытку через 3 секунды.',
      'Повторите попытку через 5 секунд.',
      'Повторите попытку через 21 секунду.',
    ]);
    expect(retryHint(400)).toBe('Повторите попытку через 7 минут.');
  });

  it('says why Create is off, with the limit and the throttle’s window in words', async () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const throttle = { limit: 2, period: 3600, available_at: new Date(now + 600_000).toISOString() };
    expect(createBlockedBy(1, 3, null, throttle, now, 'en')).toMatch(/^Only 2 backups may be started within an hour: the next one can start at /);
    await changeLocale('pl');
    expect(createBlockedBy(1, 3, null, throttle, now, 'pl')).toMatch(/^W ciągu godziny można uruchomić tylko 2 kopie zapasowe: następną/);
    expect(createBlockedBy(5, 5, null, undefined, now)).toBe('Ten serwer osiągnął limit 5 kopii zapasowych. Usuń jedną, aby zrobić miejsce.');
  });
});
