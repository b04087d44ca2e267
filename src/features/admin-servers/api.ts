import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { applicationServerTransferEndpoints, type ApplicationServerTransfer } from '../../contract/admin-server-transfer';
import {
  type ApplicationServerBuild,
  type ApplicationServerCreate,
  type ApplicationServerDetails,
  type ApplicationServerStartup,
} from '../../contract/admin-server-writes';
import { applicationServerEndpoints, type ApplicationServer } from '../../contract/admin-servers';
import { nodeEndpoints } from '../../contract/nodes';
import { userEndpoints } from '../../contract/users';
import { adminEggVariableListSchema, eggEndpoints, nestEndpoints, type AdminEgg } from '../../contract/eggs';
import { ApiError, call } from '../../lib/http';
import { eggsOf } from '../admin-eggs/api';
import { adminOverviewQueries } from '../admin-overview/api';

/*
 * Every server of the panel, through the application API (a root admin's session). Every change
 * refreshes everything under ['admin', 'servers'] and the overview, whose activity names it.
 */

/** The columns the list's search may look in (the API filters one per parameter): each one's name and search box label. */
export const SERVER_SEARCH_FIELDS = {
  name: { name: 'adminServers.field.name', search: 'adminServers.searchBy.name' },
  uuid: { name: 'adminServers.field.uuid', search: 'adminServers.searchBy.uuid' },
  external_id: { name: 'adminServers.field.externalId', search: 'adminServers.searchBy.externalId' },
  description: { name: 'adminServers.field.description', search: 'adminServers.searchBy.description' },
  image: { name: 'adminServers.field.image', search: 'adminServers.searchBy.image' },
} as const;
export type ServerSearchField = keyof typeof SERVER_SEARCH_FIELDS;

export interface ServerListParams {
  page: number;
  search: string;
  by: ServerSearchField;
  /** Only this user's servers (the user page): the reference has no owner filter, so its include is read. */
  owner?: number;
}

/** A nest and its eggs, as the egg pickers group them. */
export interface NestEggs {
  id: number;
  name: string;
  eggs: AdminEgg[];
}

// What the list and the page show beside the server: names rather than ids.
const INCLUDE = 'user,node,allocations,egg';
const DETAIL_INCLUDE = `${INCLUDE},variables`;

export const adminServerQueries = {
  all: () => ['admin', 'servers'] as const,
  list: (p: ServerListParams) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'list', p] as const,
      queryFn: ({ signal }) =>
        call(applicationServerEndpoints.list, {
          signal,
          query: { page: p.page, include: INCLUDE, ...(p.search ? { [`filter[${p.by}]`]: p.search } : {}) },
        }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'detail', id] as const,
      queryFn: async ({ signal }) =>
        (await call(applicationServerEndpoints.view, { signal, params: { server: id }, query: { include: DETAIL_INCLUDE } })).attributes,
    }),
  /**
   * The latest transfer (`null` when it never moved), or `unsupported`: a panel without Aerie's
   * transfer route (a Pterodactyl panel's 404), where no transfer is offered.
   */
  transfer: (id: string) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'transfer', id] as const,
      queryFn: async ({ signal }) => {
        try {
          return (await call(applicationServerTransferEndpoints.latest, { signal, params: { server: id } })).attributes;
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return 'unsupported' as const;
          throw error;
        }
      },
      refetchInterval: (q) => (typeof q.state.data === 'object' && q.state.data?.state === 'running' ? 2000 : false),
    }),
  /** A user's servers (the reference has no owner filter on servers; the user's include=servers is it). */
  ofUser: (userId: string) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'of-user', userId] as const,
      queryFn: async ({ signal }) => {
        const user = await call(userEndpoints.view, { signal, params: { user: userId }, query: { include: 'servers' } });
        const servers = user.attributes.relationships?.servers;
        return servers && 'data' in servers ? servers.data.map((s) => s.attributes) : [];
      },
    }),
  /** Owners to pick from, by e-mail. */
  users: (email: string) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'users', email] as const,
      queryFn: ({ signal }) => call(userEndpoints.list, { signal, query: { page: 1, per_page: 10, ...(email ? { 'filter[email]': email } : {}) } }),
      placeholderData: keepPreviousData,
    }),
  nodes: () =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'nodes'] as const,
      queryFn: ({ signal }) => call(nodeEndpoints.list, { signal, query: { page: 1, per_page: 100 } }),
    }),
  /** The nests with their eggs (one request, `include=eggs`), for the egg pickers. */
  eggs: () =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'eggs'] as const,
      queryFn: async ({ signal }): Promise<NestEggs[]> => {
        const nests = await call(nestEndpoints.list, { signal, query: { page: 1, per_page: 100, include: 'eggs' } });
        return nests.data.map(({ attributes: n }) => ({ id: n.id, name: n.name, eggs: eggsOf(n.relationships) }));
      },
    }),
  /** One egg's variables with their rules and defaults. */
  eggVariables: (nest: number, egg: number) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'egg-variables', nest, egg] as const,
      queryFn: async ({ signal }) => {
        const found = await call(eggEndpoints.view, { signal, params: { nest: String(nest), egg: String(egg) }, query: { include: 'variables' } });
        const variables = adminEggVariableListSchema.safeParse(found.attributes.relationships?.variables);
        return variables.success ? variables.data.data.map((v) => v.attributes) : [];
      },
    }),
  /** A node's free allocations (the reference's `filter[server_id]` with no server). */
  freeAllocations: (node: number) =>
    queryOptions({
      queryKey: [...adminServerQueries.all(), 'free-allocations', node] as const,
      queryFn: ({ signal }) =>
        call(nodeEndpoints.allocations, { signal, params: { node: String(node) }, query: { page: 1, per_page: 100, 'filter[server_id]': 'false' } }),
    }),
};

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: adminServerQueries.all() }),
      client.invalidateQueries({ queryKey: adminOverviewQueries.all() }),
    ]);
}

const idOf = (server: ApplicationServer) => ({ server: String(server.id) });

export function useCreateServer() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ body, signal }: { body: ApplicationServerCreate; signal?: AbortSignal }) =>
      call(applicationServerEndpoints.create, { signal, body }),
    onSettled,
  });
}

type Change<B> = { server: ApplicationServer; body: B; signal?: AbortSignal };

export function useChangeDetails() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ server, body, signal }: Change<ApplicationServerDetails>) =>
      call(applicationServerEndpoints.details, { signal, params: idOf(server), body }),
    onSettled,
  });
}

export function useChangeBuild() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ server, body, signal }: Change<ApplicationServerBuild>) =>
      call(applicationServerEndpoints.build, { signal, params: idOf(server), body }),
    onSettled,
  });
}

export function useChangeStartup() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ server, body, signal }: Change<ApplicationServerStartup>) =>
      call(applicationServerEndpoints.startup, { signal, params: idOf(server), body }),
    onSettled,
  });
}

export function useTransferServer() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ server, body, signal }: Change<ApplicationServerTransfer>) =>
      call(applicationServerTransferEndpoints.start, { signal, params: idOf(server), body }),
    onSettled,
  });
}

/** The body-less actions: suspend, unsuspend, reinstall, delete and force delete. */
export type ServerAction = 'suspend' | 'unsuspend' | 'reinstall' | 'delete' | 'forceDelete';

export function useServerAction(action: ServerAction) {
  const client = useQueryClient();
  const onSettled = useRefresh();
  const gone = action === 'delete' || action === 'forceDelete';
  return useMutation({
    mutationFn: ({ server, signal }: { server: ApplicationServer; signal?: AbortSignal }) =>
      call(applicationServerEndpoints[action], { signal, params: idOf(server) }),
    // A deleted server's page is not refetched (it would 404 while the page leaves).
    onSuccess: (_, { server }) => {
      if (gone) client.removeQueries({ queryKey: adminServerQueries.detail(String(server.id)).queryKey });
    },
    onSettled,
  });
}
