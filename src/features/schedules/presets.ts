import type { CronFields } from './cron-words';

/** The editor's presets; each fills the five cron fields ("custom" leaves them as they are). */
export type Preset = 'hourly' | 'daily' | 'weekly' | 'custom';

export function presetFields(preset: Exclude<Preset, 'custom'>, time: string, weekday: string): CronFields {
  const [hour = '4', minute = '0'] = time.split(':').map((p) => String(Number(p)));
  if (preset === 'hourly') return { minute: '0', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };
  return { minute, hour, day_of_month: '*', month: '*', day_of_week: preset === 'weekly' ? weekday : '*' };
}

/** Which preset the fields are (custom when none), with its time and weekday for the controls. */
export function presetOf(c: CronFields): { preset: Preset; time: string; weekday: string } {
  const num = /^\d{1,2}$/;
  const time = num.test(c.hour) && num.test(c.minute) ? `${c.hour.padStart(2, '0')}:${c.minute.padStart(2, '0')}` : '04:00';
  const plainDays = c.day_of_month === '*' && c.month === '*';
  if (plainDays && c.minute === '0' && c.hour === '*' && c.day_of_week === '*') return { preset: 'hourly', time, weekday: '1' };
  if (plainDays && num.test(c.hour) && num.test(c.minute)) {
    if (c.day_of_week === '*') return { preset: 'daily', time, weekday: '1' };
    if (/^[0-6]$/.test(c.day_of_week)) return { preset: 'weekly', time, weekday: c.day_of_week };
  }
  return { preset: 'custom', time, weekday: '1' };
}
