import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { databaseHostEndpoints, type DatabaseHost, type DatabaseHostCreate, type DatabaseHostUpdate } from '../../contract/admin-database-hosts';
import { nodeEndpoints } from '../../contract/nodes';
import { call } from '../../lib/http';

/* Database hosts through the application API (a root admin's session). */

export const adminDatabaseHostQueries = {
  all: () => ['admin', 'database-hosts'] as const,
  /** A page of hosts, those whose name holds `search` when given. */
  list: (p: { page: number; search: string }) =>
    queryOptions({
      queryKey: [...adminDatabaseHostQueries.all(), 'list', p] as const,
      queryFn: ({ signal }) =>
        call(databaseHostEndpoints.list, { signal, query: { page: p.page, ...(p.search ? { 'filter[name]': p.search } : {}) } }),
      placeholderData: keepPreviousData,
    }),
  /** The nodes a host may be linked to (the first hundred). */
  nodes: () =>
    queryOptions({
      queryKey: [...adminDatabaseHostQueries.all(), 'nodes'] as const,
      queryFn: async ({ signal }) => (await call(nodeEndpoints.list, { signal, query: { per_page: 100 } })).data.map((n) => n.attributes),
    }),
};

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminDatabaseHostQueries.all() });
}

export function useCreateDatabaseHost() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ body, signal }: { body: DatabaseHostCreate; signal?: AbortSignal }) => call(databaseHostEndpoints.create, { signal, body }),
    onSettled,
  });
}

export function useUpdateDatabaseHost() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ host, body, signal }: { host: DatabaseHost; body: DatabaseHostUpdate; signal?: AbortSignal }) =>
      call(databaseHostEndpoints.update, { signal, params: { host: host.id }, body }),
    onSettled,
  });
}

export function useTestDatabaseHost() {
  return useMutation({
    mutationFn: ({ host, signal }: { host: DatabaseHost; signal?: AbortSignal }) =>
      call(databaseHostEndpoints.test, { signal, params: { host: host.id } }),
  });
}

export function useDeleteDatabaseHost() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ host, signal }: { host: DatabaseHost; signal?: AbortSignal }) =>
      call(databaseHostEndpoints.delete, { signal, params: { host: host.id } }),
    onSettled,
  });
}
