import type { Selectable } from 'kysely';

/* The settings table (migration 021), beside `schema.ts`'s: the panel's settings, key → value. */

export interface SettingsTable {
  key: string;
  /** A plain string; secrets (the SMTP password) are sealed with the data dir's secret box. */
  value: string;
  updated_at: string;
}

export type SettingRow = Selectable<SettingsTable>;
