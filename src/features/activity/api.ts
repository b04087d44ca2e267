import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { accountEndpoints } from '../../contract/account';
import { activityEndpoints, type activityLogListSchema } from '../../contract/activity';
import { adminActivityEndpoints } from '../../contract/admin-activity';
import { call } from '../../lib/http';
import { accountQueries } from '../account/api';
import { serverQueries, type ServerRef } from '../servers/api';

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

const listQuery = (p: ActivityListParams) => ({
  page: p.page,
  per_page: p.perPage ?? ACTIVITY_PAGE_SIZE,
  'filter[event]': p.event.trim() || undefined,
  sort: p.sort,
  include: 'actor',
});

/** Query-option factories for a server's audit log (under the server's key root) and the account's. */
export const activityQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'activity'] as const,
  /** One page of a server's log with the actor of each entry. */
  list: (server: ServerRef, p: ActivityListParams) =>
    queryOptions({
      queryKey: [...activityQueries.all(server), 'list', p] as readonly unknown[],
      queryFn: ({ signal }) =>
        call(activityEndpoints.server, {
          signal,
          params: { server: server.uuid },
          query: listQuery(p),
        }),
      placeholderData: keepPreviousData,
    }),
  /** One page of the account's own log (the user is a subject of each entry). */
  account: (p: ActivityListParams) =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'activity', p] as readonly unknown[],
      queryFn: ({ signal }) => call(accountEndpoints.activity, { signal, query: listQuery(p) }),
      placeholderData: keepPreviousData,
    }),
  /** The admin area's log (every `admin:` entry, each with its actor), beside the admin area's other queries. */
  adminAll: () => ['admin', 'activity'] as const,
  admin: (p: ActivityListParams) =>
    queryOptions({
      queryKey: [...activityQueries.adminAll(), 'list', p] as readonly unknown[],
      queryFn: ({ signal }) =>
        call(adminActivityEndpoints.list, {
          signal,
          query: { page: p.page, per_page: p.perPage ?? ACTIVITY_PAGE_SIZE, 'filter[event]': p.event.trim() || undefined, sort: p.sort },
        }),
      placeholderData: keepPreviousData,
    }),
};

/** The one-line sentence of an audit entry, for other features' lists of entries (the admin overview). */
export { describeActivity } from './activity-sentence';
