import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { startupEndpoints } from '../../contract/startup';
import { call } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';

/*
 * The startup endpoints. The list sits under the server's key root (['server', routeId,
 * 'startup']); a saved variable is written into it, and the server's detail (its invocation) is
 * refreshed.
 */

export const startupQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'startup'] as const,
  detail: (server: ServerRef) =>
    queryOptions({
      queryKey: startupQueries.all(server),
      queryFn: ({ signal }) => call(startupEndpoints.read, { signal, params: { server: server.uuid } }),
    }),
};

export function useUpdateVariable(server: ServerRef) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { key: string; value: string }) => call(startupEndpoints.updateVariable, { params: { server: server.uuid }, body }),
    onSuccess: (saved) => {
      qc.setQueryData(startupQueries.detail(server).queryKey, (list) =>
        list
          ? {
              ...list,
              data: list.data.map((v) => (v.attributes.env_variable === saved.attributes.env_variable ? { ...v, attributes: saved.attributes } : v)),
              meta: { ...list.meta, startup_command: saved.meta?.startup_command ?? list.meta?.startup_command },
            }
          : list,
      );
      void qc.invalidateQueries({ queryKey: serverQueries.detail(server.routeId).queryKey });
    },
  });
}
