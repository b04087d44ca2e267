import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { scheduleEndpoints, type Schedule, type ScheduleBody, type ScheduleTask, type TaskBody } from '../../contract/schedules';
import { call } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';

/*
 * The schedule endpoints, under the server's key root. The API takes the whole body on every
 * update (as the reference), so a toggle sends the schedule back with one field changed.
 */

export const scheduleQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'schedules'] as const,
  list: (server: ServerRef) =>
    queryOptions({
      queryKey: [...scheduleQueries.all(server), 'list'] as const,
      queryFn: ({ signal }) => call(scheduleEndpoints.list, { signal, params: { server: server.uuid } }),
    }),
  /** One schedule with its tasks and (on Aerie) its latest runs; polled each second while a run is under way. */
  detail: (server: ServerRef, id: number) =>
    queryOptions({
      queryKey: [...scheduleQueries.all(server), 'detail', id] as const,
      queryFn: ({ signal }) => call(scheduleEndpoints.detail, { signal, params: { server: server.uuid, schedule: id } }),
      refetchInterval: (query) => (query.state.data && isRunning(query.state.data.attributes) ? RUN_POLL_MS : false),
    }),
};

export const RUN_POLL_MS = 1000;

/** A run is under way: the schedule says it is processing, or its newest run has not finished. */
export const isRunning = (s: Schedule) => s.is_processing || s.runs?.[0]?.outcome === 'running';

/** The whole body of a task as it stands, for a move that changes only its place. */
export function taskBodyOf(t: ScheduleTask): TaskBody {
  return {
    action: t.action === 'power' || t.action === 'backup' ? t.action : 'command',
    payload: t.payload,
    time_offset: t.time_offset,
    continue_on_failure: t.continue_on_failure,
  };
}

/** The whole body of a schedule as it stands, for an update that changes only part of it. */
export function bodyOf(s: Schedule): ScheduleBody {
  return {
    name: s.name,
    ...s.cron,
    is_active: s.is_active,
    only_when_online: s.only_when_online,
    // Sent only when this panel gave one: a reference panel has no such field.
    ...(s.timezone === undefined ? {} : { timezone: s.timezone }),
  };
}

function useRefresh(server: ServerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: scheduleQueries.all(server) });
}

export function useSaveSchedule(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ id, body, signal }: { id: number | null; body: ScheduleBody; signal?: AbortSignal }) =>
      id === null
        ? call(scheduleEndpoints.create, { signal, params: { server: server.uuid }, body })
        : call(scheduleEndpoints.update, { signal, params: { server: server.uuid, schedule: id }, body }),
    onSettled,
  });
}

export function useDeleteSchedule(server: ServerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, signal }: { id: number; signal?: AbortSignal }) =>
      call(scheduleEndpoints.delete, { signal, params: { server: server.uuid, schedule: id } }),
    // The list only: refetching the deleted schedule's own page would answer 404.
    onSuccess: (_, { id }) => {
      client.removeQueries({ queryKey: scheduleQueries.detail(server, id).queryKey });
      return client.invalidateQueries({ queryKey: scheduleQueries.list(server).queryKey });
    },
  });
}

/** Creates a task (`task` null) or changes one; a `sequence_id` in the body moves it there. */
export function useSaveTask(server: ServerRef, scheduleId: number) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ task, body, signal }: { task: number | null; body: TaskBody; signal?: AbortSignal }) =>
      task === null
        ? call(scheduleEndpoints.createTask, { signal, params: { server: server.uuid, schedule: scheduleId }, body })
        : call(scheduleEndpoints.updateTask, { signal, params: { server: server.uuid, schedule: scheduleId, task }, body }),
    onSettled,
  });
}

export function useDeleteTask(server: ServerRef, scheduleId: number) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ task, signal }: { task: number; signal?: AbortSignal }) =>
      call(scheduleEndpoints.deleteTask, { signal, params: { server: server.uuid, schedule: scheduleId, task } }),
    onSettled,
  });
}

/** Run now: the panel answers 202 once the run has begun; the detail query then follows it. */
export function useRunSchedule(server: ServerRef, scheduleId: number) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ signal }: { signal?: AbortSignal }) =>
      call(scheduleEndpoints.execute, { signal, params: { server: server.uuid, schedule: scheduleId } }),
    onSettled,
  });
}
