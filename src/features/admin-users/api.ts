import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { userEndpoints, type User, type UserWrite } from '../../contract/users';
import { call } from '../../lib/http';
import { adminOverviewQueries } from '../admin-overview/api';

/*
 * The panel's accounts, through the application API (a root admin's session). Every change
 * refreshes everything under ['admin', 'users'] (the lists and the user's own page), and the
 * overview, whose activity names it.
 */

/** Which field the list's search looks in: the API filters one column per parameter. */
export type UserSearchField = 'email' | 'username';

export interface UserListParams {
  page: number;
  search: string;
  by: UserSearchField;
}

export const adminUserQueries = {
  all: () => ['admin', 'users'] as const,
  list: (p: UserListParams) =>
    queryOptions({
      queryKey: [...adminUserQueries.all(), 'list', p] as const,
      queryFn: ({ signal }) =>
        call(userEndpoints.list, {
          signal,
          query: { page: p.page, ...(p.search ? { [`filter[${p.by}]`]: p.search } : {}) },
        }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...adminUserQueries.all(), 'detail', id] as const,
      queryFn: async ({ signal }): Promise<User> => (await call(userEndpoints.view, { signal, params: { user: id } })).attributes,
    }),
};

function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: adminUserQueries.all() }), client.invalidateQueries({ queryKey: adminOverviewQueries.all() })]);
}

export function useCreateUser() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ signal, body }: { body: UserWrite; signal?: AbortSignal }) => call(userEndpoints.create, { signal, body }),
    onSettled,
  });
}

export function useUpdateUser() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ user, body, signal }: { user: User; body: UserWrite; signal?: AbortSignal }) =>
      call(userEndpoints.update, { signal, params: { user: String(user.id) }, body }),
    onSettled,
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ user, signal }: { user: User; signal?: AbortSignal }) => call(userEndpoints.delete, { signal, params: { user: String(user.id) } }),
    // The deleted user's page is not refetched (it would 404 while the page leaves).
    onSuccess: (_, { user }) => client.removeQueries({ queryKey: adminUserQueries.detail(String(user.id)).queryKey }),
    onSettled: () => client.invalidateQueries({ queryKey: adminUserQueries.all() }),
  });
}

export function useDisableUserTwoFactor() {
  const onSettled = useRefresh();
  return useMutation({
    mutationFn: ({ user, signal }: { user: User; signal?: AbortSignal }) =>
      call(userEndpoints.twoFactorDisable, { signal, params: { user: String(user.id) } }),
    onSettled,
  });
}

export function usePasswordLink() {
  return useMutation({
    mutationFn: ({ user, signal }: { user: User; signal?: AbortSignal }) =>
      call(userEndpoints.passwordReset, { signal, params: { user: String(user.id) } }),
  });
}
