import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { locationEndpoints, type Location, type LocationCreate } from '../../contract/locations';
import { call } from '../../lib/http';
import { activityQueries } from '../activity/api';
import { adminOverviewQueries } from '../admin-overview/api';

/*
 * Locations, through the application API (a root admin's session). Every change refreshes
 * everything under ['admin', 'locations'], and the admin activity log and overview that name it.
 */

export interface LocationListParams {
  page: number;
  /** Part of the short code; '' for all. */
  search: string;
}

export const adminLocationQueries = {
  all: () => ['admin', 'locations'] as const,
  list: (p: LocationListParams) =>
    queryOptions({
      queryKey: [...adminLocationQueries.all(), 'list', p] as const,
      queryFn: ({ signal }) =>
        call(locationEndpoints.list, { signal, query: { page: p.page, 'filter[short]': p.search || undefined, include: 'nodes' } }),
      placeholderData: keepPreviousData,
    }),
  /** Every location (up to the API's 100 a page), for a node's location picker. */
  choices: () =>
    queryOptions({
      queryKey: [...adminLocationQueries.all(), 'choices'] as const,
      queryFn: async ({ signal }): Promise<Location[]> =>
        (await call(locationEndpoints.list, { signal, query: { per_page: 100 } })).data.map((l) => l.attributes),
    }),
};

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [adminLocationQueries.all(), activityQueries.adminAll(), adminOverviewQueries.all()].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
}

export function useCreateLocation() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ body, signal }: { body: LocationCreate; signal?: AbortSignal }) => call(locationEndpoints.create, { signal, body }),
    onSettled,
  });
}

export function useUpdateLocation() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ location, body, signal }: { location: Location; body: LocationCreate; signal?: AbortSignal }) =>
      call(locationEndpoints.update, { signal, params: { location: String(location.id) }, body }),
    onSettled,
  });
}

export function useDeleteLocation() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ location, signal }: { location: Location; signal?: AbortSignal }) =>
      call(locationEndpoints.delete, { signal, params: { location: String(location.id) } }),
    onSettled,
  });
}
