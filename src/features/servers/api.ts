import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { serverListSchema, serverWithMetaSchema, type Server } from '../../contract';
import { api } from '../../lib/http';

export type ServerListScope = 'member' | 'admin-all';

export interface ServerListParams {
  page: number;
  search: string;
  scope: ServerListScope;
  perPage?: number;
}

/** Query-option factories for servers; every key under ['servers'] comes from here. */
export const serverQueries = {
  all: () => ['servers'] as const,
  lists: () => [...serverQueries.all(), 'list'] as const,
  list: (p: ServerListParams) =>
    queryOptions({
      queryKey: [...serverQueries.lists(), p] as const,
      queryFn: ({ signal }) =>
        api('/api/client', serverListSchema, {
          signal,
          query: {
            page: p.page,
            per_page: p.perPage ?? 50,
            'filter[*]': p.search.trim() || undefined,
            type: p.scope === 'admin-all' ? 'admin-all' : undefined,
          },
        }),
      placeholderData: keepPreviousData,
    }),
  details: () => [...serverQueries.all(), 'detail'] as const,
  /** One server with the caller's permissions (`meta`); `id` is the identifier or uuid. */
  detail: (id: string) =>
    queryOptions({
      queryKey: [...serverQueries.details(), id] as const,
      queryFn: ({ signal }) => api(`/api/client/servers/${encodeURIComponent(id)}`, serverWithMetaSchema, { signal }),
      staleTime: 30_000,
    }),
};

/**
 * The open server, for pages below ServerLayout (which renders them only once this query has
 * succeeded, so the data is in the cache). `routeId` is the id as written in the URL, for links.
 */
export function useServer(): Server & { routeId: string } {
  const routeId = useParams().id ?? '';
  const query = useQuery(serverQueries.detail(routeId));
  if (!query.data) throw new Error('useServer outside ServerLayout');
  return { ...query.data.attributes, routeId };
}
