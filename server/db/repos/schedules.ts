import { sql } from 'kysely';
import type { Db } from '../index';
import type { ScheduleRow, ScheduleRunRow, SchedulesTable, TaskRow } from '../schema-schedules';

/** Schedules, their tasks (ordered by `sequence_id`, kept 1…n) and their runs. */

export type ScheduleValues = Pick<
  SchedulesTable,
  | 'name'
  | 'cron_minute'
  | 'cron_hour'
  | 'cron_day_of_month'
  | 'cron_month'
  | 'cron_day_of_week'
  | 'timezone'
  | 'is_active'
  | 'only_when_online'
  | 'next_run_at'
>;

export interface TaskValues {
  action: string;
  payload: string;
  time_offset: number;
  continue_on_failure: boolean;
}

export function ofServer(db: Db, serverId: number): Promise<ScheduleRow[]> {
  return db.selectFrom('schedules').selectAll().where('server_id', '=', serverId).orderBy('id').execute();
}

export function find(db: Db, serverId: number, id: number): Promise<ScheduleRow | undefined> {
  return db.selectFrom('schedules').selectAll().where('server_id', '=', serverId).where('id', '=', id).executeTakeFirst();
}

export function findById(db: Db, id: number): Promise<ScheduleRow | undefined> {
  return db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function tasksOf(db: Db, scheduleIds: readonly number[]): Promise<TaskRow[]> {
  if (scheduleIds.length === 0) return [];
  return db.selectFrom('tasks').selectAll().where('schedule_id', 'in', scheduleIds).orderBy('schedule_id').orderBy('sequence_id').execute();
}

export function insert(db: Db, serverId: number, values: ScheduleValues, now: Date): Promise<ScheduleRow> {
  const at = now.toISOString();
  return db
    .insertInto('schedules')
    .values({ ...values, server_id: serverId, is_processing: 0, last_run_at: null, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function update(
  db: Db,
  id: number,
  values: Partial<ScheduleValues & Pick<SchedulesTable, 'is_processing' | 'last_run_at'>>,
  now?: Date,
): Promise<ScheduleRow> {
  return db
    .updateTable('schedules')
    .set(now ? { ...values, updated_at: now.toISOString() } : values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function remove(db: Db, id: number): Promise<void> {
  await db.deleteFrom('schedules').where('id', '=', id).execute();
}

async function taskCount(db: Db, scheduleId: number): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Moves the tasks of `scheduleId` whose sequence is in [from, to] by `by` (±1). */
async function shift(db: Db, scheduleId: number, from: number, to: number, by: 1 | -1): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ sequence_id: sql`sequence_id + ${by}` })
    .where('schedule_id', '=', scheduleId)
    .where('sequence_id', '>=', from)
    .where('sequence_id', '<=', to)
    .execute();
}

/** A task at `sequence` (clamped to 1…n+1; the last when absent), the others moved down to make room. Run in a transaction. */
export async function insertTask(db: Db, scheduleId: number, values: TaskValues, sequence: number | undefined, now: Date): Promise<TaskRow> {
  const count = await taskCount(db, scheduleId);
  const at = Math.min(Math.max(1, sequence ?? count + 1), count + 1);
  await shift(db, scheduleId, at, count, 1);
  const stamp = now.toISOString();
  return db
    .insertInto('tasks')
    .values({
      schedule_id: scheduleId,
      sequence_id: at,
      action: values.action,
      payload: values.payload,
      time_offset: values.time_offset,
      continue_on_failure: values.continue_on_failure ? 1 : 0,
      is_queued: 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes a task and moves it to `sequence` (clamped to 1…n), the ones between shifted. Run in a transaction. */
export async function updateTask(db: Db, task: TaskRow, values: TaskValues, sequence: number | undefined, now: Date): Promise<TaskRow> {
  const count = await taskCount(db, task.schedule_id);
  const to = Math.min(Math.max(1, sequence ?? task.sequence_id), count);
  if (to < task.sequence_id) await shift(db, task.schedule_id, to, task.sequence_id - 1, 1);
  if (to > task.sequence_id) await shift(db, task.schedule_id, task.sequence_id + 1, to, -1);
  return db
    .updateTable('tasks')
    .set({
      sequence_id: to,
      action: values.action,
      payload: values.payload,
      time_offset: values.time_offset,
      continue_on_failure: values.continue_on_failure ? 1 : 0,
      updated_at: now.toISOString(),
    })
    .where('id', '=', task.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes a task and closes its gap. Run in a transaction. */
export async function removeTask(db: Db, task: TaskRow): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', task.id).execute();
  await shift(db, task.schedule_id, task.sequence_id + 1, Number.MAX_SAFE_INTEGER, -1);
}

export function findTask(db: Db, scheduleId: number, id: number): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('schedule_id', '=', scheduleId).where('id', '=', id).executeTakeFirst();
}

export async function setQueued(db: Db, taskIds: readonly number[], queued: boolean): Promise<void> {
  if (taskIds.length === 0) return;
  await db
    .updateTable('tasks')
    .set({ is_queued: queued ? 1 : 0 })
    .where('id', 'in', taskIds)
    .execute();
}

/** Active schedules due at `now` that no chain runs, of servers in no special state, oldest due first. */
export function due(db: Db, now: Date): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules as s')
    .innerJoin('servers as v', 'v.id', 's.server_id')
    .selectAll('s')
    .where('s.is_active', '=', 1)
    .where('s.is_processing', '=', 0)
    .where('s.next_run_at', 'is not', null)
    .where('s.next_run_at', '<=', now.toISOString())
    .where('v.status', 'is', null)
    .orderBy('s.next_run_at')
    .execute();
}

/** Marks a schedule processing with its next run moved on; false when a run already holds it. */
export async function claim(db: Db, id: number, nextRunAt: string | null): Promise<boolean> {
  const result = await db
    .updateTable('schedules')
    .set({ is_processing: 1, next_run_at: nextRunAt })
    .where('id', '=', id)
    .where('is_processing', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A run's end: the schedule free again, its last run at `at` (nothing when it was deleted meanwhile). */
export async function release(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('schedules').set({ is_processing: 0, last_run_at: at }).where('id', '=', id).execute();
}

export function insertRun(db: Db, scheduleId: number, trigger: string, now: Date): Promise<ScheduleRunRow> {
  return db
    .insertInto('schedule_runs')
    .values({ schedule_id: scheduleId, trigger, outcome: 'running', reason: null, tasks: '[]', started_at: now.toISOString(), finished_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateRun(
  db: Db,
  id: number,
  values: Partial<Pick<ScheduleRunRow, 'outcome' | 'reason' | 'tasks' | 'finished_at'>>,
): Promise<void> {
  await db.updateTable('schedule_runs').set(values).where('id', '=', id).execute();
}

export function recentRuns(db: Db, scheduleId: number, limit: number): Promise<ScheduleRunRow[]> {
  return db.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', scheduleId).orderBy('id', 'desc').limit(limit).execute();
}

/** Keeps the newest `keep` runs of a schedule. */
export async function pruneRuns(db: Db, scheduleId: number, keep: number): Promise<void> {
  const kept = db.selectFrom('schedule_runs').select('id').where('schedule_id', '=', scheduleId).orderBy('id', 'desc').limit(keep);
  await db.deleteFrom('schedule_runs').where('schedule_id', '=', scheduleId).where('id', 'not in', kept).execute();
}

/**
 * After a crash or a stop mid-chain: every run still `running` becomes `interrupted`, and its
 * schedule is free to fire again (the reference's stays processing for ever). Returns how many.
 */
export async function interruptUnfinished(db: Db, now: Date, reason: string): Promise<number> {
  const runs = await db
    .updateTable('schedule_runs')
    .set({ outcome: 'interrupted', reason, finished_at: now.toISOString() })
    .where('outcome', '=', 'running')
    .returning('id')
    .execute();
  await db.updateTable('schedules').set({ is_processing: 0 }).where('is_processing', '=', 1).execute();
  await db.updateTable('tasks').set({ is_queued: 0 }).where('is_queued', '=', 1).execute();
  return runs.length;
}
