import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { activityLogListSchema } from '../../contract';
import { api } from '../../lib/http';

export type ActivitySort = 'timestamp' | '-timestamp';

export interface ActivityListParams {
  page: number;
  /** Substring of the event name; '' for all. */
  event: string;
  sort: ActivitySort;
  perPage?: number;
}

export const ACTIVITY_PAGE_SIZE = 25;

export type ActivityList = z.infer<typeof activityLogListSchema>;

/** Query-option factories for audit logs; every key under ['activity'] comes from here. */
export const activityQueries = {
  all: () => ['activity'] as const,
  server: (serverId: string) => [...activityQueries.all(), 'server', serverId] as const,
  /** One page of a server's log with the actor of each entry (spec §4.18). */
  list: (serverId: string, p: ActivityListParams) =>
    queryOptions({
      queryKey: [...activityQueries.server(serverId), 'list', p] as const,
      queryFn: ({ signal }) =>
        api(`/api/client/servers/${encodeURIComponent(serverId)}/activity`, activityLogListSchema, {
          signal,
          query: {
            page: p.page,
            per_page: p.perPage ?? ACTIVITY_PAGE_SIZE,
            'filter[event]': p.event.trim() || undefined,
            sort: p.sort,
            include: 'actor',
          },
        }),
      placeholderData: keepPreviousData,
    }),
};
