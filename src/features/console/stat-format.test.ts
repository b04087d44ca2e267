import { describe, expect, it } from 'vitest';
import { formatCpu, formatUptime, formatUsage, usageLevel, usagePercent } from './stat-format';

describe('stat formatting', () => {
  it('measures against the limit, with no percentage when unlimited', () => {
    expect(usagePercent(50, 200)).toBe(25);
    expect(usagePercent(50, 0)).toBeNull();
  });

  it('warns from 80 % and alarms from 95 %', () => {
    expect([null, 0, 79.9, 80, 94.9, 95, 120].map(usageLevel)).toEqual(['normal', 'normal', 'normal', 'warning', 'warning', 'danger', 'danger']);
  });

  it('shows usage over the limit, ∞ without one', () => {
    expect(formatCpu(12.5, 200, 'en')).toBe('12.5% / 200%');
    expect(formatCpu(150, 0, 'en')).toBe('150% / ∞');
    expect(formatUsage(512 * 1024 * 1024, 1024, 'en')).toBe('512 MiB / 1 GiB');
    expect(formatUsage(1536, 0, 'en')).toBe('1.5 KiB / ∞');
  });

  it('reads uptimes in their two largest units', () => {
    expect(formatUptime(45_900)).toBe('45s');
    expect(formatUptime(12 * 60_000 + 3000)).toBe('12m 3s');
    expect(formatUptime(3 * 3_600_000 + 4 * 60_000)).toBe('3h 4m');
    expect(formatUptime(2 * 86_400_000 + 5 * 3_600_000)).toBe('2d 5h');
  });
});
