import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { authEndpoints, type CheckpointRequest, type LoginRequest } from '../../contract/auth';
import { passwordResetEndpoints, type ForgotPasswordRequest, type ResetPasswordRequest } from '../../contract/password-reset';
import { safeIntended } from '../../app/paths';
import { ApiError, call } from '../../lib/http';
import { accountQueries } from '../account/api';

/*
 * Browser-session endpoints. They answer 4xx by design
 * (wrong password, wrong code), so none of them broadcasts a 401.
 */

export function login(body: LoginRequest) {
  return call(authEndpoints.login, { body, quiet401: true }).then((r) => r.data);
}

export function checkpoint(body: CheckpointRequest) {
  return call(authEndpoints.checkpoint, { body, quiet401: true }).then((r) => r.data);
}

export async function logout(): Promise<void> {
  try {
    await call(authEndpoints.logout, { quiet401: true });
  } catch (error) {
    // Already signed out (session expired or ended elsewhere): that is what the user asked for.
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
}

export const useLogin = () => useMutation({ mutationFn: login });

/** Whether the panel sends mail: the sign-in page offers "Forgot password?" only then. */
export const passwordResetQueries = {
  status: () =>
    queryOptions({
      queryKey: ['auth', 'password-reset'],
      queryFn: ({ signal }) => call(passwordResetEndpoints.status, { signal, quiet401: true }).then((r) => r.data),
      staleTime: Infinity,
      retry: false,
    }),
};

export const useForgotPassword = () =>
  useMutation({ mutationFn: (body: ForgotPasswordRequest) => call(passwordResetEndpoints.forgot, { body, quiet401: true }) });
export const useResetPassword = () =>
  useMutation({ mutationFn: (body: ResetPasswordRequest) => call(passwordResetEndpoints.reset, { body, quiet401: true }) });
export const useCheckpoint = () => useMutation({ mutationFn: checkpoint });

/**
 * After a completed login: drop whatever the previous user left in the cache, load the new
 * account (so the first page renders without a spinner) and go where the user was heading.
 * `redirect` (the `?redirect=` the user came with) wins over the server's `intended`, which the
 * reference panel always sets to "/".
 */
export function useFinishSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (redirect: string | null, intended: string) => {
    queryClient.clear();
    try {
      await queryClient.fetchQuery(accountQueries.me());
    } catch {
      // RequireAuth on the next page shows what went wrong
    }
    await navigate(safeIntended(redirect ?? intended), { replace: true });
  };
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    meta: { toastErrors: true },
    onSuccess: async () => {
      // Clear before leaving, so the sign-in page cannot see the old account and bounce back.
      await queryClient.cancelQueries();
      queryClient.clear();
      await navigate('/auth/login', { replace: true });
    },
  });
}
