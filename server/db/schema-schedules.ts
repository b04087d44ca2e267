import type { Generated, Selectable } from 'kysely';

/* The schedules' tables (migration 012), beside `schema.ts`'s. */

export interface SchedulesTable {
  id: Generated<number>;
  server_id: number;
  name: string;
  cron_minute: string;
  cron_hour: string;
  cron_day_of_month: string;
  cron_month: string;
  cron_day_of_week: string;
  /** An IANA zone; null: the panel's (`APP_TIMEZONE`). */
  timezone: string | null;
  is_active: number;
  is_processing: number;
  only_when_online: number;
  last_run_at: string | null;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TasksTable {
  id: Generated<number>;
  schedule_id: number;
  sequence_id: number;
  action: string;
  payload: string;
  /** Seconds after the task before it (after the run's start for the first), 0–900. */
  time_offset: number;
  is_queued: number;
  continue_on_failure: number;
  created_at: string;
  updated_at: string;
}

export interface ScheduleRunsTable {
  id: Generated<number>;
  schedule_id: number;
  trigger: string;
  outcome: string;
  reason: string | null;
  /** JSON array of the tasks' outcomes. */
  tasks: string;
  started_at: string;
  finished_at: string | null;
}

export type ScheduleRow = Selectable<SchedulesTable>;
export type TaskRow = Selectable<TasksTable>;
export type ScheduleRunRow = Selectable<ScheduleRunsTable>;
