import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { networkEndpoints, type Allocation } from '../../contract/network';
import { call } from '../../lib/http';
import { serverQueries, type ServerRef } from '../servers/api';

/*
 * The network endpoints. The list sits under the server's key root; every change refreshes the
 * whole root once it settles, so the server detail (the overview's allocations card) follows.
 */

type AllocationList = Awaited<ReturnType<typeof listAllocations>>;

const listAllocations = (server: ServerRef, signal?: AbortSignal) => call(networkEndpoints.list, { signal, params: { server: server.uuid } });

export const networkQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'allocations'] as const,
  list: (server: ServerRef) =>
    queryOptions({
      queryKey: networkQueries.all(server),
      queryFn: ({ signal }) => listAllocations(server, signal),
    }),
};

function useRefresh(server: ServerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: serverQueries.root(server.routeId) });
}

export function useCreateAllocation(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: () => call(networkEndpoints.create, { params: { server: server.uuid } }),
    meta: { toastErrors: true },
    onSettled,
  });
}

export function useAllocationNotes(server: ServerRef, id: number) {
  const client = useQueryClient();
  const key = networkQueries.list(server).queryKey;
  return useMutation({
    mutationFn: (notes: string | null) => call(networkEndpoints.notes, { params: { server: server.uuid, allocation: id }, body: { notes } }),
    // Written into the list as it is, so the field being edited is not refetched under the user.
    onSuccess: (saved) =>
      client.setQueryData<AllocationList>(key, (list) => list && { ...list, data: list.data.map((a) => (a.attributes.id === id ? saved : a)) }),
  });
}

/** Marks the new primary at once and puts the old one back when the panel refuses. */
export function useMakePrimary(server: ServerRef) {
  const client = useQueryClient();
  const key = networkQueries.list(server).queryKey;
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: (id: number) => call(networkEndpoints.primary, { params: { server: server.uuid, allocation: id } }),
    onMutate: async (id: number) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<AllocationList>(key);
      client.setQueryData<AllocationList>(
        key,
        (list) => list && { ...list, data: list.data.map((a) => ({ ...a, attributes: { ...a.attributes, is_default: a.attributes.id === id } })) },
      );
      return { previous };
    },
    onError: (_error, _id, context) => client.setQueryData(key, context?.previous),
    meta: { toastErrors: true },
    onSettled,
  });
}

export function useDeleteAllocation(server: ServerRef) {
  const onSettled = useRefresh(server);
  return useMutation({
    mutationFn: (allocation: Allocation) => call(networkEndpoints.delete, { params: { server: server.uuid, allocation: allocation.id } }),
    onSettled,
  });
}
