import { useMemo } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { serverEndpoints, settingsEndpoints, type RenameServer, type Server, type serverMetaSchema } from '../../contract/servers';
import { ALL_PERMISSIONS_MARKER } from '../../contract/permissions';
import type { z } from 'zod';
import { consoleEndpoints } from '../../contract/websocket';
import { call } from '../../lib/http';
import { isSettling, serverConditions, type ServerCondition } from './server-state';
import { serverDetailKey, serverRootKey } from './query-keys';

const SETTLING_POLL_MS = 3000;

export type ServerListScope = 'member' | 'admin-all';

export interface ServerListParams {
  page: number;
  search: string;
  scope: ServerListScope;
  perPage?: number;
}

/**
 * What the per-server factories of every feature need: `routeId`, the key root, and `uuid`, which
 * the API paths use. `useServer()` returns both.
 */
export interface ServerRef {
  routeId: string;
  uuid: string;
}

/*
 * Query keys. The server list lives under ['servers']; everything about one server (its detail and
 * every sub-resource: files, contents, activity, …) lives under ['server', <routeId>], so one
 * `invalidateQueries({ queryKey: serverQueries.root(routeId) })` refreshes all of it (after a
 * restore, a reinstall, a websocket event).
 *
 * Why the id in the URL (normally the 8-char identifier) and not the uuid: the detail query is the
 * first thing a server page runs, before the uuid is known, and the URL id is the one id every
 * server page holds from its first render. API paths still use the uuid. A server opened by its
 * uuid (`/server/<uuid>`) simply keys everything under the uuid; `invalidateServer` covers both.
 */
export const serverQueries = {
  all: () => ['servers'] as const,
  lists: () => [...serverQueries.all(), 'list'] as const,
  list: (p: ServerListParams) =>
    queryOptions({
      queryKey: [...serverQueries.lists(), p] as const,
      queryFn: ({ signal }) =>
        call(serverEndpoints.list, {
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
  /** The root of every key about one server (see above). */
  root: serverRootKey,
  /** One server with the caller's permissions (`meta`); `routeId` is the identifier or uuid. */
  detail: (routeId: string) =>
    queryOptions({
      queryKey: serverDetailKey(routeId),
      queryFn: ({ signal }) => call(serverEndpoints.detail, { signal, params: { server: routeId } }),
      staleTime: 30_000,
      // Access that ends (a removed subuser) is shown once, by the server layout (query-client.ts).
      meta: { pageShowsLostAccess: true },
      // An install or restore ends on the node; its end shows without a reload.
      refetchInterval: (query) => (query.state.data && isSettling(query.state.data.attributes) ? SETTLING_POLL_MS : false),
    }),
  resourcesKey: (server: ServerRef) => [...serverQueries.root(server.routeId), 'resources'] as const,
  /** What the server's process is doing and using now (the server list's live status). */
  resources: (server: ServerRef) =>
    queryOptions({
      queryKey: serverQueries.resourcesKey(server),
      queryFn: ({ signal }) => call(consoleEndpoints.resources, { signal, params: { server: server.uuid } }),
      // A node that does not answer is said on its row (use-live-status), not worth a toast per row.
      meta: { quiet: true },
      retry: false,
    }),
};

/**
 * The caller's permission strings on a server, from its detail's `meta` (what the server layout
 * provides to its pages, and what the command palette offers actions by). The reference SPA's
 * rule: owners hold everything (and the `admin.` extras reported beside it, such as seeing installs).
 */
export function memberPermissions(meta: z.infer<typeof serverMetaSchema>): readonly string[] {
  return meta.is_server_owner ? [ALL_PERMISSIONS_MARKER, ...meta.user_permissions.filter((p) => p.startsWith('admin.'))] : meta.user_permissions;
}

/**
 * After a change to a server seen from anywhere (rename, reinstall…): everything under its key
 * root, whichever id a page used, and the lists that show it.
 */
export function invalidateServer(client: QueryClient, server: Pick<Server, 'identifier' | 'uuid'>): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: serverQueries.root(server.identifier) }),
    client.invalidateQueries({ queryKey: serverQueries.root(server.uuid) }),
    client.invalidateQueries({ queryKey: serverQueries.lists() }),
  ]);
}

/** Renames the server; the page header and the server list show the new name at once. */
export function useRenameServer(server: Pick<Server, 'identifier' | 'uuid'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ signal, ...body }: RenameServer & { signal?: AbortSignal }) =>
      call(settingsEndpoints.rename, { params: { server: server.uuid }, body, signal }),
    onSuccess: () => invalidateServer(client, server),
  });
}

/** Reinstalls the server: it is stopped and its install script runs again; the status shows it meanwhile. */
export function useReinstallServer(server: Pick<Server, 'identifier' | 'uuid'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ signal }: { signal?: AbortSignal }) => call(settingsEndpoints.reinstall, { params: { server: server.uuid }, signal }),
    onSettled: () => invalidateServer(client, server),
  });
}

/**
 * The open server, for pages below ServerLayout (which renders them only once this query has
 * succeeded, so the data is in the cache). `routeId` is the id as written in the URL: for links,
 * and as the root of the page's query keys.
 */
export function useServer(): Server & ServerRef {
  const routeId = useParams().id ?? '';
  const query = useQuery(serverQueries.detail(routeId));
  if (!query.data) throw new Error('useServer outside ServerLayout');
  return { ...query.data.attributes, routeId };
}

/** The open server's ids only, as one object that stays the same across renders (for hook deps). */
export function useServerRef(): ServerRef {
  const { routeId, uuid } = useServer();
  return useMemo(() => ({ routeId, uuid }), [routeId, uuid]);
}

/**
 * What keeps the open server's actions from working (suspended, installing…), most important
 * first, or null: pages show their actions disabled with this reason instead of actions that fail.
 */
export function useBlockingCondition(): ServerCondition | null {
  const server = useServer();
  return serverConditions(server).find((c) => c.blocking) ?? null;
}

export { primaryAddress } from './server-list-format';
export { serverConditions } from './server-state';
export { allocationAddress } from './server-allocations-card';
