import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { serverListSchema, serverWithMetaSchema } from '../../contract';
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
