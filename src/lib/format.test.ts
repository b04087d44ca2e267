// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from './i18n/runtime';
import {
  formatAllocated,
  formatBytes,
  formatCpuLimit,
  formatDateTime,
  formatMemoryLimit,
  formatMiB,
  formatPercent,
  formatRelativeTime,
  formatSwapLimit,
} from './format';

describe('sizes', () => {
  it('formats bytes with binary units', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(1023, 'en-US')).toBe('1,023 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 ** 3, 'en-US')).toBe('5 GiB');
    expect(formatBytes(-2048, 'en-US')).toBe('-2 KiB');
    expect(formatBytes(Number.NaN, 'en-US')).toBe('—');
  });

  it('formats MiB limits as MiB or GiB', () => {
    expect(formatMiB(512, 'en-US')).toBe('512 MiB');
    expect(formatMiB(1024, 'en-US')).toBe('1 GiB');
    expect(formatMiB(1536, 'en-US')).toBe('1.5 GiB');
    expect(formatMiB(10_000, 'en-US')).toBe('9.77 GiB');
  });

  it('follows the locale for decimals', () => {
    expect(formatMiB(1536, 'de-DE')).toBe('1,5 GiB');
  });

  it('says Unlimited for a zero memory or disk limit', () => {
    expect(formatMemoryLimit(0, 'en-US')).toBe('Unlimited');
    expect(formatMemoryLimit(2048, 'en-US')).toBe('2 GiB');
  });

  it('reads swap as the reference panel does: -1 unlimited, 0 none', () => {
    expect(formatSwapLimit(-1, 'en-US')).toBe('Unlimited');
    expect(formatSwapLimit(0, 'en-US')).toBe('None');
    expect(formatSwapLimit(256, 'en-US')).toBe('256 MiB');
  });
});

describe('percentages', () => {
  it('formats values already in percent', () => {
    expect(formatPercent(150, 'en-US')).toBe('150%');
    expect(formatPercent(42.25, 'en-US')).toBe('42.3%');
  });

  it('says Unlimited for a zero CPU limit', () => {
    expect(formatCpuLimit(0, 'en-US')).toBe('Unlimited');
    expect(formatCpuLimit(200, 'en-US')).toBe('200%');
  });
});

describe('times', () => {
  const now = new Date('2024-05-10T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('says just now under a minute, either way', () => {
    expect(formatRelativeTime(ago(5), now)).toBe('just now');
    expect(formatRelativeTime(ago(-30), now)).toBe('just now');
  });

  it('picks the largest fitting unit', () => {
    expect(formatRelativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(26 * 3600), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86400), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(14 * 86400), now)).toBe('2 weeks ago');
    expect(formatRelativeTime(ago(400 * 86400), now)).toBe('last year');
    expect(formatRelativeTime(ago(-2 * 3600), now)).toBe('in 2 hours');
  });

  it('accepts ISO strings with offsets and returns garbage unchanged', () => {
    expect(formatRelativeTime('2024-05-10T13:50:00+02:00', now)).toBe('10 minutes ago');
    expect(formatRelativeTime('not a date', now)).toBe('not a date');
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('formats an absolute date and time', () => {
    expect(formatDateTime('2024-05-10T12:00:00Z', 'en-US', 'UTC')).toBe('May 10, 2024, 12:00:00 PM');
  });
});

describe('in another language', () => {
  afterEach(() => changeLocale('en'));
  const now = new Date('2024-05-10T12:00:00Z');

  it('says its words, numbers and relative times in German and Russian', async () => {
    await changeLocale('de');
    expect(formatMemoryLimit(0, 'de')).toBe('Unbegrenzt');
    expect(formatSwapLimit(0, 'de')).toBe('Keiner');
    expect(formatAllocated(1536, 4096, 'de')).toBe('1,5 GiB von 4 GiB');
    expect(formatRelativeTime(new Date(now.getTime() - 5 * 60_000), now, 'de')).toBe('vor 5 Minuten');
    expect(formatRelativeTime(now, now, 'de')).toBe('gerade eben');
    await changeLocale('ru');
    expect(formatCpuLimit(0, 'ru')).toBe('Без ограничений');
    expect(formatRelativeTime(new Date(now.getTime() - 2 * 3600_000), now, 'ru')).toBe('2 часа назад');
  });
});
