import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { applicationKeyEndpoints, type ApplicationKeyCreate } from '../../contract/admin-api-keys';
import { call } from '../../lib/http';

/* The signed-in root admin's application keys (Aerie's `/api/application/api-keys`). */

export const adminApiKeyQueries = {
  all: () => ['admin', 'api-keys'] as const,
  list: () =>
    queryOptions({
      queryKey: [...adminApiKeyQueries.all(), 'list'] as const,
      queryFn: async ({ signal }) => (await call(applicationKeyEndpoints.list, { signal })).data.map((k) => k.attributes),
    }),
};

export function useCreateApplicationKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, signal }: { body: ApplicationKeyCreate; signal?: AbortSignal }) => call(applicationKeyEndpoints.create, { signal, body }),
    onSettled: () => client.invalidateQueries({ queryKey: adminApiKeyQueries.all() }),
  });
}

export function useRevokeApplicationKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ identifier, signal }: { identifier: string; signal?: AbortSignal }) =>
      call(applicationKeyEndpoints.delete, { signal, params: { identifier } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminApiKeyQueries.all() }),
  });
}
