import type { Schedule, ScheduleBody, ScheduleRun, ScheduleTask, TaskBody } from '../../src/contract';
import { isPowerSignal, POWER_PERMISSIONS, type Permission } from '../../src/contract';
import type { Db } from '../db';
import { schedules } from '../db/repos';
import type { ScheduleValues, TaskValues } from '../db/repos/schedules';
import type { ScheduleRow, ScheduleRunRow, TaskRow } from '../db/schema-schedules';
import type { ServerRow } from '../db/schema';
import { badRequest, forbidden, notFound, validationError, validationErrors } from '../http/errors';
import { isoOffset, isTimeZone } from '../lib/time';
import type { ServerAccess } from './access';
import { cronErrors, nextRun, type CronFields } from '../../src/contract/cron';

/*
 * Schedules' rules and shapes (issue 23, the reference's `ScheduleController` and
 * `ScheduleTaskController`), where the reference's gaps become 422s naming the field: the month
 * and every cron field checked, booleans that are booleans, a payload for each action that needs
 * one, a power payload that is a signal, the task limit on create and on update.
 */

/** How many of a schedule's latest runs its single view carries. */
export const RUNS_SHOWN = 10;
/** How many runs a schedule keeps. */
export const RUNS_KEPT = 50;

const flag = (n: number) => n === 1;
const iso = (at: string | null) => (at === null ? null : isoOffset(at));

export function cronOf(row: ScheduleRow): CronFields {
  return {
    minute: row.cron_minute,
    hour: row.cron_hour,
    day_of_month: row.cron_day_of_month,
    month: row.cron_month,
    day_of_week: row.cron_day_of_week,
  };
}

export function zoneOf(row: Pick<ScheduleRow, 'timezone'>, panelZone: string): string {
  return row.timezone ?? panelZone;
}

export function taskResource(task: TaskRow): { object: 'schedule_task'; attributes: ScheduleTask } {
  return {
    object: 'schedule_task',
    attributes: {
      id: task.id,
      sequence_id: task.sequence_id,
      action: task.action,
      payload: task.payload,
      time_offset: task.time_offset,
      is_queued: flag(task.is_queued),
      continue_on_failure: flag(task.continue_on_failure),
      created_at: isoOffset(task.created_at),
      updated_at: isoOffset(task.updated_at),
    },
  };
}

export function runResource(run: ScheduleRunRow): ScheduleRun {
  let tasks: ScheduleRun['tasks'] = [];
  try {
    tasks = JSON.parse(run.tasks) as ScheduleRun['tasks'];
  } catch {
    // A row written by a crashed run is shown without its tasks rather than not at all.
  }
  return {
    id: run.id,
    trigger: run.trigger as ScheduleRun['trigger'],
    outcome: run.outcome as ScheduleRun['outcome'],
    reason: run.reason,
    tasks,
    started_at: isoOffset(run.started_at),
    finished_at: iso(run.finished_at),
  };
}

export function scheduleResource(
  row: ScheduleRow,
  tasks: TaskRow[],
  panelZone: string,
  runs?: ScheduleRunRow[],
): { object: 'server_schedule'; attributes: Schedule } {
  const cron = cronOf(row);
  return {
    object: 'server_schedule',
    attributes: {
      id: row.id,
      name: row.name,
      cron: { day_of_week: cron.day_of_week, day_of_month: cron.day_of_month, month: cron.month, hour: cron.hour, minute: cron.minute },
      is_active: flag(row.is_active),
      is_processing: flag(row.is_processing),
      only_when_online: flag(row.only_when_online),
      last_run_at: iso(row.last_run_at),
      next_run_at: iso(row.next_run_at),
      created_at: isoOffset(row.created_at),
      updated_at: isoOffset(row.updated_at),
      timezone: row.timezone,
      effective_timezone: zoneOf(row, panelZone),
      ...(runs ? { runs: runs.map(runResource) } : {}),
      relationships: { tasks: { object: 'list', data: tasks.filter((t) => t.schedule_id === row.id).map(taskResource) } },
    },
  };
}

/** A schedule of this server, or the 404 of a missing one (another server's included). */
export async function scheduleOf(db: Db, server: ServerRow, id: string): Promise<ScheduleRow> {
  const n = Number(id);
  const row = Number.isSafeInteger(n) && n > 0 ? await schedules.find(db, server.id, n) : undefined;
  if (!row) throw notFound();
  return row;
}

export async function taskOf(db: Db, schedule: ScheduleRow, id: string): Promise<TaskRow> {
  const n = Number(id);
  const row = Number.isSafeInteger(n) && n > 0 ? await schedules.findTask(db, schedule.id, n) : undefined;
  if (!row) throw notFound();
  return row;
}

/** The body as a row's values, with its next run from `now`; 422 naming each bad cron field or zone. */
export function scheduleValues(body: ScheduleBody, panelZone: string, now: Date): ScheduleValues {
  const cron: CronFields = {
    minute: body.minute,
    hour: body.hour,
    day_of_month: body.day_of_month,
    month: body.month,
    day_of_week: body.day_of_week,
  };
  const errors: { field: string; detail: string }[] = cronErrors(cron).map((e) => ({ field: e.field, detail: e.message }));
  const timezone = body.timezone ? body.timezone : null;
  if (timezone !== null && !isTimeZone(timezone))
    errors.push({ field: 'timezone', detail: `The time zone "${timezone}" is not a known IANA time zone.` });
  if (errors.length > 0) throw validationErrors(errors);
  // As the reference: an omitted is_active is false (its clients always send it).
  const active = body.is_active === true;
  return {
    name: body.name,
    cron_minute: cron.minute,
    cron_hour: cron.hour,
    cron_day_of_month: cron.day_of_month,
    cron_month: cron.month,
    cron_day_of_week: cron.day_of_week,
    timezone,
    is_active: active ? 1 : 0,
    only_when_online: body.only_when_online === true ? 1 : 0,
    next_run_at: nextRun(cron, timezone ?? panelZone, now)?.toISOString() ?? null,
  };
}

/** The longest console line a command task may send, as the console's own command route. */
export const COMMAND_MAX = 4096;

/**
 * A task body as values; 422 for a missing payload, an unknown signal, a command that is not one
 * console line (a line break would smuggle a second command past the activity log), or a NUL
 * anywhere; 403 for a backup task where backups are off.
 */
export function taskValues(body: TaskBody, server: ServerRow): TaskValues {
  const payload = (body.payload ?? '').trim();
  if (body.action !== 'backup' && payload === '') throw validationError('payload', 'The payload field is required unless action is backup.');
  if ((body.payload ?? '').includes('\0')) throw validationError('payload', 'The payload may not contain NUL bytes.');
  if (body.action === 'command' && /[\r\n]/.test(payload))
    throw validationError('payload', 'A command task sends one console line: remove the line breaks.');
  if (body.action === 'command' && payload.length > COMMAND_MAX) {
    throw validationError('payload', `The command may not be greater than ${COMMAND_MAX} characters.`);
  }
  if (body.action === 'power' && !isPowerSignal(payload)) {
    throw validationError('payload', 'The power action must be one of start, stop, restart or kill.');
  }
  if (body.action === 'backup' && (server.backup_limit ?? 0) <= 0)
    throw forbidden("A backup task cannot be created when the server's backup limit is set to 0.");
  return {
    action: body.action,
    payload: body.action === 'backup' ? (body.payload ?? '') : payload,
    time_offset: body.time_offset,
    continue_on_failure: body.continue_on_failure === true,
  };
}

/**
 * The permission a task's action needs of whoever sets it up or runs it now, as if they acted
 * directly (CVE-2026-86177: `schedule.update` alone let a subuser send console commands through a
 * task). A saved task is the server's and runs on its timetable whoever wrote it.
 */
export function taskPermission(task: Pick<TaskRow, 'action' | 'payload'>): Permission {
  if (task.action === 'command') return 'control.console';
  if (task.action === 'power') return isPowerSignal(task.payload) ? POWER_PERMISSIONS[task.payload] : 'control.stop';
  return 'backup.create';
}

/** 403 unless the caller could do each task's action directly. */
export function assertMayAct(access: ServerAccess, tasks: Pick<TaskRow, 'action' | 'payload'>[]): void {
  for (const task of tasks) {
    const needed = taskPermission(task);
    if (!access.can(needed)) throw forbidden(`This task needs the ${needed} permission, which you do not have on this server.`);
  }
}

/** At most `limit` schedules a server (Aerie's PANEL_SCHEDULE_LIMIT): the scheduler's work per tenant stays bounded. Run in a transaction. */
export async function assertScheduleRoom(db: Db, server: ServerRow, limit: number): Promise<void> {
  if ((await schedules.ofServer(db, server.id)).length >= limit) {
    throw badRequest(`A server may not have more than ${limit} schedules.`, 'ServiceLimitExceededException');
  }
}

/** The reference's task limit, on create; on update too (unlike it), for a schedule the limit was lowered under. */
export async function assertTaskRoom(db: Db, schedule: ScheduleRow, limit: number, adding: boolean): Promise<void> {
  const count = (await schedules.tasksOf(db, [schedule.id])).length + (adding ? 1 : 0);
  if (count > limit) {
    throw badRequest(
      `Schedules may not have more than ${limit} tasks associated with them. ${adding ? 'Creating this task would put this schedule over the limit.' : 'Remove tasks before changing this one.'}`,
      'ServiceLimitExceededException',
    );
  }
}
