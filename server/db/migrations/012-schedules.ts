import type { Kysely } from 'kysely';

/*
 * Schedules (issue 23), as the reference panel's `schedules` and `tasks`, with a time zone of
 * their own (null: the panel's) and a record of each run: what started it, how it ended, and each
 * task's outcome as JSON, so an owner can see whether the 4 a.m. restart happened and why not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cron_minute', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('cron_hour', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('cron_day_of_month', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('cron_month', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('cron_day_of_week', 'text', (c) => c.notNull().defaultTo('*'))
    .addColumn('timezone', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_processing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('only_when_online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_run_at', 'text')
    .addColumn('next_run_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_server').on('schedules').columns(['server_id']).execute();
  await db.schema.createIndex('schedules_due').on('schedules').columns(['is_active', 'is_processing', 'next_run_at']).execute();
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('sequence_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_offset', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_queued', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('continue_on_failure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_schedule').on('tasks').columns(['schedule_id', 'sequence_id']).execute();
  await db.schema
    .createTable('schedule_runs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    /** `cron`, `manual` (run now) or `missed` (due while the panel was down). */
    .addColumn('trigger', 'text', (c) => c.notNull())
    /** `running`, `done`, `failed`, `skipped` or `interrupted`. */
    .addColumn('outcome', 'text', (c) => c.notNull())
    /** Why a run was skipped, failed or interrupted, in words. */
    .addColumn('reason', 'text')
    /** JSON array: per task its id, sequence, action, outcome and reason. */
    .addColumn('tasks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('schedule_runs_schedule').on('schedule_runs').columns(['schedule_id', 'id']).execute();
}
