import * as z from 'zod/mini';
import { endpoint, SERVER_ROUTE_PREFIX } from './endpoint';
import { item } from './envelope';
import { timestamp } from './fields';

/*
 * Schedules, the reference panel's (`server_schedule` with its `cron` and `tasks`, `schedule_task`),
 * with what Aerie adds and reference clients ignore: a `timezone` and the last runs. Where the
 * reference answers a bad body with a 500 or reads "false" as true, these answer 422 naming the
 * field.
 */

export const TASK_ACTIONS = ['command', 'power', 'backup'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];
export const TASK_OFFSET_MAX = 900;

export const taskAttributes = z.object({
  id: z.int(),
  sequence_id: z.int(),
  action: z.string(),
  payload: z.string(),
  time_offset: z.int(),
  is_queued: z.boolean(),
  continue_on_failure: z.boolean(),
  created_at: timestamp,
  updated_at: z.nullable(timestamp),
});
export const taskSchema = item('schedule_task', taskAttributes);
export type ScheduleTask = z.infer<typeof taskAttributes>;

/** One task's part in a run (Aerie's addition). */
export const runTaskSchema = z.object({
  task_id: z.int(),
  sequence_id: z.int(),
  action: z.string(),
  outcome: z.enum(['done', 'skipped', 'failed']),
  reason: z.nullable(z.string()),
  at: timestamp,
});
export const scheduleRunSchema = z.object({
  id: z.int(),
  trigger: z.enum(['cron', 'manual', 'missed']),
  outcome: z.enum(['running', 'done', 'failed', 'skipped', 'interrupted']),
  reason: z.nullable(z.string()),
  tasks: z.array(runTaskSchema),
  started_at: timestamp,
  finished_at: z.nullable(timestamp),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

export const scheduleAttributes = z.object({
  id: z.int(),
  name: z.string(),
  cron: z.object({ day_of_week: z.string(), day_of_month: z.string(), month: z.string(), hour: z.string(), minute: z.string() }),
  is_active: z.boolean(),
  is_processing: z.boolean(),
  only_when_online: z.boolean(),
  last_run_at: z.nullable(timestamp),
  next_run_at: z.nullable(timestamp),
  created_at: timestamp,
  updated_at: z.nullable(timestamp),
  /** Aerie: the schedule's IANA time zone, null for the panel's. */
  timezone: z.optional(z.nullable(z.string())),
  /** Aerie: the zone its cron is read in (the schedule's or the panel's). */
  effective_timezone: z.optional(z.string()),
  /** Aerie: the latest runs, newest first (on the single-schedule view). */
  runs: z.optional(z.array(scheduleRunSchema)),
  relationships: z.object({ tasks: z.object({ object: z.literal('list'), data: z.array(taskSchema) }) }),
});
export const scheduleSchema = item('server_schedule', scheduleAttributes);
export type Schedule = z.infer<typeof scheduleAttributes>;
export const scheduleListSchema = z.object({ object: z.literal('list'), data: z.array(scheduleSchema) });

const cronField = (name: string) =>
  z.string({ error: `The ${name} field is required.` }).check(z.trim(), z.minLength(1, `The ${name} field is required.`), z.maxLength(191));
const flag = (name: string) => z.boolean({ error: `The ${name} field must be true or false.` });

// POST schedules and POST schedules/{id}: the whole body each time, as the reference.
export const scheduleBodySchema = z.object({
  name: z
    .string({ error: 'The name field is required.' })
    .check(z.trim(), z.minLength(1, 'The name field is required.'), z.maxLength(191, 'The name may not be greater than 191 characters.')),
  minute: cronField('minute'),
  hour: cronField('hour'),
  day_of_month: cronField('day of month'),
  month: cronField('month'),
  day_of_week: cronField('day of week'),
  is_active: z.optional(flag('is active')),
  only_when_online: z.optional(flag('only when online')),
  timezone: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(64)))),
});
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

export const taskBodySchema = z.object({
  action: z.enum(TASK_ACTIONS, { error: 'The selected action is invalid.' }),
  payload: z.optional(z.nullable(z.string().check(z.maxLength(65_535)))),
  time_offset: z
    .int({ error: 'The time offset must be a whole number of seconds.' })
    .check(
      z.minimum(0, `The time offset must be between 0 and ${TASK_OFFSET_MAX}.`),
      z.maximum(TASK_OFFSET_MAX, `The time offset must be between 0 and ${TASK_OFFSET_MAX}.`),
    ),
  sequence_id: z.optional(z.int({ error: 'The sequence id must be a whole number.' })),
  continue_on_failure: z.optional(flag('continue on failure')),
});
export type TaskBody = z.infer<typeof taskBodySchema>;

const schedules = `${SERVER_ROUTE_PREFIX}/schedules`;
const oneSchedule = `${schedules}/:schedule`;

export const scheduleEndpoints = {
  list: endpoint({ method: 'GET', path: schedules, response: scheduleListSchema, permission: 'schedule.read' }),
  /** 200, as the reference (not 201). */
  create: endpoint({ method: 'POST', path: schedules, body: scheduleBodySchema, response: scheduleSchema, permission: 'schedule.create' }),
  detail: endpoint({ method: 'GET', path: oneSchedule, response: scheduleSchema, permission: 'schedule.read' }),
  update: endpoint({ method: 'POST', path: oneSchedule, body: scheduleBodySchema, response: scheduleSchema, permission: 'schedule.update' }),
  /** 202 with `[]`; the run goes on in the background. */
  execute: endpoint({ method: 'POST', path: `${oneSchedule}/execute`, response: z.array(z.never()), permission: 'schedule.update' }),
  delete: endpoint({ method: 'DELETE', path: oneSchedule, response: 'empty', permission: 'schedule.delete' }),
  /** Task writes and run now also need each task action's own permission (control.*, backup.create): 403 otherwise. */
  createTask: endpoint({ method: 'POST', path: `${oneSchedule}/tasks`, body: taskBodySchema, response: taskSchema, permission: 'schedule.update' }),
  updateTask: endpoint({
    method: 'POST',
    path: `${oneSchedule}/tasks/:task`,
    body: taskBodySchema,
    response: taskSchema,
    permission: 'schedule.update',
  }),
  deleteTask: endpoint({ method: 'DELETE', path: `${oneSchedule}/tasks/:task`, response: 'empty', permission: 'schedule.update' }),
};
