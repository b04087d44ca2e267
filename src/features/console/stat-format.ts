import { formatBytes, formatPercent } from '../../lib/format';
import { t as translate } from './messages';

export type UsageLevel = 'normal' | 'warning' | 'danger';

/** Share of a limit in percent, or null when there is no limit (0). */
export function usagePercent(used: number, limit: number): number | null {
  return limit > 0 ? (used / limit) * 100 : null;
}

/** Warning from 80 % of the limit, danger from 95 %. */
export function usageLevel(percent: number | null): UsageLevel {
  if (percent === null) return 'normal';
  if (percent >= 95) return 'danger';
  if (percent >= 80) return 'warning';
  return 'normal';
}

/** "12.5% / 200%", or "12.5% / ∞" without a limit (CPU: 100 % is one core). */
export function formatCpu(cpu: number, limit: number, locale?: string): string {
  return `${formatPercent(cpu, locale)} / ${limit > 0 ? formatPercent(limit, locale) : '∞'}`;
}

/** "300 MiB / 1 GiB"; the limit in MiB, 0 = unlimited. */
export function formatUsage(bytes: number, limitMiB: number, locale?: string): string {
  return `${formatBytes(bytes, locale)} / ${limitMiB > 0 ? formatBytes(limitMiB * 1024 * 1024, locale) : '∞'}`;
}

/** An uptime in ms in its two largest units: "45s", "12m 3s", "3h 4m", "2d 5h" (`t`: a component's `useT()`). */
export function formatUptime(ms: number, t = translate): string {
  const s = Math.floor(ms / 1000);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return t('console.uptime.days', { days, hours });
  if (hours > 0) return t('console.uptime.hours', { hours, minutes });
  if (minutes > 0) return t('console.uptime.minutes', { minutes, seconds: s % 60 });
  return t('console.uptime.seconds', { seconds: s });
}
