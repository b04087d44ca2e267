import type { FastifyInstance } from 'fastify';
import { scheduleEndpoints } from '../../src/contract';
import type { EndpointReply, UserEndpoint } from '../../src/contract';
import type { AppDeps } from '../deps';
import { writeTransaction } from '../db';
import { schedules } from '../db/repos';
import type { ScheduleRow, TaskRow } from '../db/schema-schedules';
import { badRequest } from '../http/errors';
import { serverRoute, type ServerContext } from '../http/routes';
import type { Scheduler } from '../services/scheduler';
import {
  assertMayAct,
  assertScheduleRoom,
  assertTaskRoom,
  RUNS_SHOWN,
  scheduleOf,
  scheduleResource,
  scheduleValues,
  taskOf,
  taskResource,
  taskValues,
} from '../services/schedules';

/*
 * The schedules tab (the reference's paths, bodies, codes and permissions, declared in the
 * contract's `scheduleEndpoints`); the rules are `services/schedules.ts`'s, the runs the
 * scheduler's. Entries name the schedule (and task) as subjects, with the new values on update.
 */
export async function scheduleRoutes(app: FastifyInstance, deps: AppDeps, scheduler: Scheduler): Promise<void> {
  const { db } = deps;
  const zone = deps.config.timezone;
  const params = (request: { params: unknown }) => request.params as { schedule: string; task?: string };
  const subjects = (schedule: ScheduleRow, task?: TaskRow) => [
    { type: 'schedule' as const, id: schedule.id },
    ...(task ? [{ type: 'task' as const, id: task.id }] : []),
  ];
  const withTasks = async (row: ScheduleRow, runs = false) =>
    scheduleResource(row, await schedules.tasksOf(db, [row.id]), zone, runs ? await schedules.recentRuns(db, row.id, RUNS_SHOWN) : undefined);

  /*
   * A route under `/schedules/:schedule`: the schedule of this server the path names (404 for any
   * other, another server's included), found after access, permission and body are checked, so
   * the order of answers stays the server route's.
   */
  const scheduleRoute =
    <const E extends UserEndpoint>(endpoint: E) =>
    (handler: (context: ServerContext<E> & { schedule: ScheduleRow }) => Promise<EndpointReply<E>>) =>
      serverRoute(
        app,
        deps,
        endpoint,
      )(async (context) => handler({ ...context, schedule: await scheduleOf(db, context.server, params(context.request).schedule) }));
  /** The same for `/tasks/:task`: the task must be this schedule's. */
  const taskRoute =
    <const E extends UserEndpoint>(endpoint: E) =>
    (handler: (context: ServerContext<E> & { schedule: ScheduleRow; task: TaskRow }) => Promise<EndpointReply<E>>) =>
      scheduleRoute(endpoint)(async (context) =>
        handler({ ...context, task: await taskOf(db, context.schedule, params(context.request).task ?? '') }),
      );

  await serverRoute(
    app,
    deps,
    scheduleEndpoints.list,
  )(async ({ server }) => {
    const rows = await schedules.ofServer(db, server.id);
    const tasks = await schedules.tasksOf(
      db,
      rows.map((r) => r.id),
    );
    return { object: 'list' as const, data: rows.map((row) => scheduleResource(row, tasks, zone)) };
  });

  await serverRoute(
    app,
    deps,
    scheduleEndpoints.create,
  )(async ({ server, body, activity }) => {
    const values = scheduleValues(body, zone, deps.clock.now());
    const row = await writeTransaction(db, async (trx) => {
      await assertScheduleRoom(trx, server, deps.config.scheduleLimit);
      return schedules.insert(trx, server.id, values, deps.clock.now());
    });
    await activity('server:schedule.create', { name: row.name }, subjects(row));
    return withTasks(row);
  });

  await scheduleRoute(scheduleEndpoints.detail)(async ({ schedule }) => withTasks(schedule, true));

  await scheduleRoute(scheduleEndpoints.update)(async ({ schedule: row, body, activity }) => {
    const values = scheduleValues(body, zone, deps.clock.now());
    // Turning a schedule off and on again frees one a chain left processing (the reference's way
    // out), but not one whose chain still runs: that would let run now start a second chain beside it.
    const freed = values.is_active !== row.is_active && !scheduler.isRunning(row.id) ? { is_processing: 0 } : {};
    const updated = await schedules.update(db, row.id, { ...values, ...freed }, deps.clock.now());
    await activity('server:schedule.update', { name: updated.name, active: updated.is_active === 1 }, subjects(updated));
    return withTasks(updated, true);
  });

  await scheduleRoute(scheduleEndpoints.execute)(async ({ reply, schedule: row, access, activity }) => {
    const tasks = await schedules.tasksOf(db, [row.id]);
    if (tasks.length === 0) throw badRequest('Cannot process schedule for task execution: no tasks are registered.', 'DisplayException');
    // Run now is acting now: only with the rights each task's action takes (the timetable needs none).
    assertMayAct(access, tasks);
    await scheduler.runNow(row);
    await activity('server:schedule.execute', { name: row.name }, subjects(row));
    reply.status(202);
    return [];
  });

  await scheduleRoute(scheduleEndpoints.delete)(async ({ schedule: row, activity }) => {
    await schedules.remove(db, row.id);
    await activity('server:schedule.delete', { name: row.name }, subjects(row));
  });

  await scheduleRoute(scheduleEndpoints.createTask)(async ({ schedule: row, server, access, body, activity }) => {
    const values = taskValues(body, server);
    assertMayAct(access, [values]);
    const task = await writeTransaction(db, async (trx) => {
      await assertTaskRoom(trx, row, deps.config.scheduleTaskLimit, true);
      return schedules.insertTask(trx, row.id, values, body.sequence_id, deps.clock.now());
    });
    await activity('server:task.create', { name: row.name, action: task.action, payload: task.payload }, subjects(row, task));
    return taskResource(task);
  });

  await taskRoute(scheduleEndpoints.updateTask)(async ({ schedule: row, task, server, access, body, activity }) => {
    const values = taskValues(body, server);
    assertMayAct(access, [values]);
    const updated = await writeTransaction(db, async (trx) => {
      await assertTaskRoom(trx, row, deps.config.scheduleTaskLimit, false);
      return schedules.updateTask(trx, task, values, body.sequence_id, deps.clock.now());
    });
    // The new values (the reference writes the old ones).
    await activity('server:task.update', { name: row.name, action: updated.action, payload: updated.payload }, subjects(row, updated));
    return taskResource(updated);
  });

  await taskRoute(scheduleEndpoints.deleteTask)(async ({ schedule: row, task, activity }) => {
    await writeTransaction(db, (trx) => schedules.removeTask(trx, task));
    await activity('server:task.delete', { name: row.name }, subjects(row, task));
  });
}
