import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  nodeEndpoints,
  type Node,
  type NodeAllocation,
  type NodeAllocationCreate,
  type NodeAllocationUpdate,
  type NodeWrite,
} from '../../contract/nodes';
import { call } from '../../lib/http';
import { activityQueries } from '../activity/api';
import { adminLocationQueries } from '../admin-locations/api';
import { adminOverviewQueries } from '../admin-overview/api';

/*
 * Nodes and their allocations, through the application API (a root admin's session). Every change
 * refreshes everything under ['admin', 'nodes'] (lists, a node's page, its allocations), the
 * locations (their node counts), and the admin activity log and overview.
 */

export interface NodeListParams {
  page: number;
  /** Part of the node's name; '' for all. */
  search: string;
}

export const adminNodeQueries = {
  all: () => ['admin', 'nodes'] as const,
  list: (p: NodeListParams) =>
    queryOptions({
      queryKey: [...adminNodeQueries.all(), 'list', p] as const,
      queryFn: ({ signal }) => call(nodeEndpoints.list, { signal, query: { page: p.page, 'filter[name]': p.search || undefined } }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...adminNodeQueries.all(), 'detail', id] as const,
      queryFn: async ({ signal }): Promise<Node> => (await call(nodeEndpoints.view, { signal, params: { node: id } })).attributes,
    }),
  configuration: (id: string) =>
    queryOptions({
      queryKey: [...adminNodeQueries.all(), 'detail', id, 'configuration'] as const,
      queryFn: ({ signal }) => call(nodeEndpoints.configuration, { signal, params: { node: id } }),
      // The token is in it: fetched when the page shows it, not kept about for later.
      gcTime: 0,
    }),
  allocations: (id: string, page: number) =>
    queryOptions({
      queryKey: [...adminNodeQueries.all(), 'detail', id, 'allocations', page] as const,
      queryFn: ({ signal }) => call(nodeEndpoints.allocations, { signal, params: { node: id }, query: { page } }),
      placeholderData: keepPreviousData,
    }),
};

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [adminNodeQueries.all(), adminLocationQueries.all(), activityQueries.adminAll(), adminOverviewQueries.all()].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useCreateNode() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ body, signal }: { body: NodeWrite; signal?: AbortSignal }) => call(nodeEndpoints.create, { signal, body }),
    onSettled,
  });
}

export function useUpdateNode() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ node, body, signal }: { node: Node; body: NodeWrite; signal?: AbortSignal }) =>
      call(nodeEndpoints.update, { signal, params: { node: String(node.id) }, body }),
    onSettled,
  });
}

export function useDeleteNode() {
  const client = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ node, signal }: { node: Node; signal?: AbortSignal }) => call(nodeEndpoints.delete, { signal, params: { node: String(node.id) } }),
    // The deleted node's page is not refetched (it would 404 while the page leaves).
    onSuccess: (_, { node }) => client.removeQueries({ queryKey: adminNodeQueries.detail(String(node.id)).queryKey }),
    onSettled: refresh,
  });
}

export function useCreateAllocations() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ node, body, signal }: { node: Node; body: NodeAllocationCreate; signal?: AbortSignal }) =>
      call(nodeEndpoints.createAllocations, { signal, params: { node: String(node.id) }, body }),
    onSettled,
  });
}

export function useUpdateAllocation() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ node, allocation, body, signal }: { node: Node; allocation: NodeAllocation; body: NodeAllocationUpdate; signal?: AbortSignal }) =>
      call(nodeEndpoints.updateAllocation, { signal, params: { node: String(node.id), allocation: String(allocation.id) }, body }),
    onSettled,
  });
}

export function useDeleteAllocation() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ node, allocation, signal }: { node: Node; allocation: NodeAllocation; signal?: AbortSignal }) =>
      call(nodeEndpoints.deleteAllocation, { signal, params: { node: String(node.id), allocation: String(allocation.id) } }),
    onSettled,
  });
}
