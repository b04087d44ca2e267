import { describe, expect, it } from 'vitest';
import { cronFieldErrors, isTimeZone, previewRuns } from './cron-preview';

const fields = { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' };

describe('cron preview', () => {
  it('names the field at fault', () => {
    expect(cronFieldErrors(fields)).toEqual({});
    expect(cronFieldErrors({ ...fields, hour: '25' })).toEqual({ hour: 'The hour field is not a valid cron value: "25".' });
    expect(Object.keys(cronFieldErrors({ ...fields, day_of_week: 'funday' }))).toEqual(['day_of_week']);
  });

  it('lists the next runs at the wall-clock time of the zone', () => {
    const runs = previewRuns(fields, 'Europe/Berlin', 3, new Date('2026-03-27T12:00:00Z'));
    // 04:00 in Berlin: 03:00Z before the change to summer time on 29 March, 02:00Z after.
    expect(runs.map((d) => d.toISOString())).toEqual(['2026-03-28T03:00:00.000Z', '2026-03-29T02:00:00.000Z', '2026-03-30T02:00:00.000Z']);
  });

  it('has none for a bad expression or zone', () => {
    expect(previewRuns({ ...fields, minute: '61' }, 'UTC')).toEqual([]);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(previewRuns(fields, 'Mars/Olympus')).toEqual([]);
  });
});
