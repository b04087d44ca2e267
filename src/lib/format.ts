/*
 * Shared display formatting. Sizes use binary units (what the panel and Docker mean by "MB");
 * numbers, dates and relative times follow the locale given (pass `useLocale()`), so tests are
 * deterministic. The few words (Unlimited, None, "of", "just now") are the `lib` catalogue's
 * messages in the language being shown.
 */

import { t } from './messages';

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

function number(value: number, locale?: string, maxFraction = 2): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: maxFraction }).format(value);
}

/** 1536 → "1.5 KiB"; whole bytes below 1 KiB. */
export function formatBytes(bytes: number, locale?: string): string {
  if (!Number.isFinite(bytes)) return '—';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const sign = bytes < 0 ? '-' : '';
  return `${sign}${number(value, locale, unit === 0 ? 0 : 2)} ${BYTE_UNITS[unit]}`;
}

/** A size given in MiB (server limits): 512 → "512 MiB", 2048 → "2 GiB". */
export function formatMiB(mib: number, locale?: string): string {
  return formatBytes(mib * 1024 * 1024, locale);
}

/** A node's memory or disk given to servers against its total (MiB); a total of 0 is "none set", not zero bytes. */
export function formatAllocated(allocatedMiB: number, totalMiB: number, locale?: string): string {
  const allocated = formatMiB(allocatedMiB, locale);
  return totalMiB > 0
    ? t('lib.format.allocatedOf', { allocated, total: formatMiB(totalMiB, locale) })
    : t('lib.format.allocatedNoTotal', { allocated });
}

/** Memory and disk limits: 0 means no limit. */
export function formatMemoryLimit(mib: number, locale?: string): string {
  return mib === 0 ? t('lib.format.unlimited') : formatMiB(mib, locale);
}

/**
 * Swap follows the reference panel's admin form, not the other limits: -1 is unlimited and 0
 * turns swap off.
 */
export function formatSwapLimit(mib: number, locale?: string): string {
  if (mib < 0) return t('lib.format.unlimited');
  if (mib === 0) return t('lib.format.none');
  return formatMiB(mib, locale);
}

/** A CPU limit in percent of one core: 150 → "150%", 0 → "Unlimited". */
export function formatCpuLimit(percent: number, locale?: string): string {
  return percent === 0 ? t('lib.format.unlimited') : formatPercent(percent, locale);
}

/** 42.5 → "42.5%" (the value is already in percent). */
export function formatPercent(percent: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);
}

export function formatNumber(value: number, locale?: string): string {
  return number(value, locale);
}

function toDate(value: Date | string): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "in 2 hours"; under a minute is "just now". Unparsable input is returned as is. */
export function formatRelativeTime(value: Date | string, now: Date = new Date(), locale = 'en'): string {
  const date = toDate(value);
  if (!date) return String(value);
  const seconds = (date.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 60) return t('lib.format.justNow');
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (abs >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return t('lib.format.justNow');
}

/** Date and time in the user's locale, e.g. for a tooltip next to a relative time. */
export function formatDateTime(value: Date | string, locale?: string, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return String(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(date);
}
