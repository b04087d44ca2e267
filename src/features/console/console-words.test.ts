// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '../../lib/i18n/runtime';
import { formatUptime, formatUsage } from './stat-format';

afterEach(() => changeLocale('en'));

describe('the console’s figures in another language', () => {
  it('reads uptimes and usage in the chosen language', async () => {
    await changeLocale('fr');
    expect(formatUptime(2 * 86_400_000 + 5 * 3_600_000)).toBe('2 j 5 h');
    expect(formatUptime(12 * 60_000 + 3000)).toBe('12 min 3 s');
    expect(formatUsage(1536, 0, 'fr')).toBe('1,5 KiB / ∞');
  });
});
