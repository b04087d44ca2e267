import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { scheduleEndpoints, type Schedule, type ScheduleBody } from '../../contract/schedules';
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
};

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
