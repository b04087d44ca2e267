import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { subuserEndpoints, type Subuser } from '../../contract/subusers';
import { call } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';

/* The subuser endpoints; every change refreshes the list under the server's key root. */

export const userQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'subusers'] as const,
  list: (server: ServerRef) =>
    queryOptions({
      queryKey: userQueries.all(server),
      queryFn: async ({ signal }): Promise<Subuser[]> =>
        (await call(subuserEndpoints.list, { signal, params: { server: server.uuid } })).data.map((u) => u.attributes),
    }),
};

/** What peers show as "how many permissions": the always-granted console connection is not counted. */
export const grantedCount = (user: Subuser) => user.permissions.filter((p) => p !== 'websocket.connect').length;

function useRefresh(server: ServerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: userQueries.all(server) });
}

export function useCreateSubuser(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ signal, ...body }: { email: string; permissions: string[]; signal?: AbortSignal }) =>
      call(subuserEndpoints.create, { signal, params: { server: server.uuid }, body }),
    onSettled,
  });
}

export function useUpdateSubuser(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ user, permissions, signal }: { user: Subuser; permissions: string[]; signal?: AbortSignal }) =>
      call(subuserEndpoints.update, { signal, params: { server: server.uuid, user: user.uuid }, body: { permissions } }),
    onSettled,
  });
}

export function useDeleteSubuser(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: ({ user, signal }: { user: Subuser; signal?: AbortSignal }) =>
      call(subuserEndpoints.delete, { signal, params: { server: server.uuid, user: user.uuid } }),
    onSettled,
  });
}
