import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { accountEndpoints, type ApiKey, type PreferencesUpdate, type SshKey } from '../../contract/account';
import { toast } from '../../components/ui/toast';
import { matchLocale, storeLocale } from '../../lib/i18n/locales';
import { setThemeChoice } from '../../lib/theme';
import { t } from './messages';
import type * as z from 'zod/mini';
import type { apiKeyCreateSchema, emailUpdateSchema, passwordUpdateSchema, sshKeyCreateSchema } from '../../contract/account';
import { applyApiErrors } from '../../lib/form-errors';
import { ApiError, call, maybeSignedIn, unauthenticatedError } from '../../lib/http';

export const accountQueries = {
  all: () => ['account'] as const,
  /** The signed-in user; a 401 here means "not signed in" (decided without a request on a fresh visit). */
  me: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'me'] as const,
      queryFn: async ({ signal }) => {
        if (!maybeSignedIn()) throw unauthenticatedError();
        return (await call(accountEndpoints.me, { signal, quiet401: true })).attributes;
      },
      staleTime: 60_000,
    }),
  apiKeys: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'api-keys'] as const,
      queryFn: async ({ signal }): Promise<ApiKey[]> => (await call(accountEndpoints.apiKeys, { signal })).data.map((k) => k.attributes),
    }),
  sshKeys: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'ssh-keys'] as const,
      queryFn: async ({ signal }): Promise<SshKey[]> => (await call(accountEndpoints.sshKeys, { signal })).data.map((k) => k.attributes),
    }),
  /**
   * The panel's permission catalogue (`GET /api/client/permissions`): every group and permission
   * with its one-line description, as the subuser editor and the permission hints show them.
   */
  permissionCatalogue: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'permission-catalogue'] as const,
      queryFn: async ({ signal }): Promise<PermissionCatalogue> => (await call(accountEndpoints.permissions, { signal })).attributes.permissions,
      staleTime: Infinity,
    }),
};

/** Group name → its description and each permission key's description. */
export type PermissionCatalogue = Record<string, { description: string; keys: Record<string, string> }>;

/**
 * A refused password: `InvalidPasswordProvidedException` from the password and e-mail changes; the
 * two-factor endpoints answer a plain 400 "The password provided was not valid." as the reference does.
 */
const isWrongPassword = (error: ApiError) =>
  error.status === 400 && (error.code === 'InvalidPasswordProvidedException' || /^The password provided was/.test(error.message));

/**
 * Puts a failed account request's messages on the form: field errors on their fields, a wrong
 * current password (400, no field in the answer) on `passwordField`, a wrong two-factor code on
 * `code`. Returns the message for above the form, or null.
 */
export function placeAccountErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  passwordField?: Path<T>,
): string | null {
  if (error instanceof ApiError && passwordField && isWrongPassword(error)) {
    setError(passwordField, { type: 'server', message: error.message });
    return null;
  }
  if (error instanceof ApiError && error.code === 'TwoFactorAuthenticationTokenInvalid' && fields.includes('code' as Path<T>)) {
    setError('code' as Path<T>, { type: 'server', message: error.message });
    return null;
  }
  return applyApiErrors(error, setError, { fields });
}

function useAccountMutation<V, R>(request: (vars: V & { signal?: AbortSignal }) => Promise<R>, refresh: readonly string[] | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => (refresh ? client.invalidateQueries({ queryKey: [...accountQueries.all(), ...refresh] }) : undefined),
  });
}

type Body<S extends z.ZodMiniType> = z.output<S> & { signal?: AbortSignal };

export const useChangePassword = () =>
  useAccountMutation(({ signal, ...body }: Body<typeof passwordUpdateSchema>) => call(accountEndpoints.password, { signal, body }), null);

/** Refreshes the signed-in user, so the header shows the new address. */
export const useChangeEmail = () =>
  useAccountMutation(({ signal, ...body }: Body<typeof emailUpdateSchema>) => call(accountEndpoints.email, { signal, body }), ['me']);

/** A new secret and its otpauth:// URI (not active until confirmed with a code). */
export const useTwoFactorSetup = () => useMutation({ mutationFn: () => call(accountEndpoints.twoFactorSetup, {}) });

export const useEnableTwoFactor = () =>
  useAccountMutation(
    async ({ signal, ...body }: { code: string; password: string; signal?: AbortSignal }) =>
      (await call(accountEndpoints.twoFactorEnable, { signal, body })).attributes.tokens,
    ['me'],
  );

export const useDisableTwoFactor = () =>
  useAccountMutation(
    ({ signal, ...body }: { password: string; signal?: AbortSignal }) => call(accountEndpoints.twoFactorDisable, { signal, body }),
    ['me'],
  );

export const useCreateApiKey = () =>
  useAccountMutation(({ signal, ...body }: Body<typeof apiKeyCreateSchema>) => call(accountEndpoints.apiKeyCreate, { signal, body }), ['api-keys']);

export const useDeleteApiKey = () =>
  useAccountMutation(
    ({ identifier, signal }: { identifier: string; signal?: AbortSignal }) => call(accountEndpoints.apiKeyDelete, { signal, params: { identifier } }),
    ['api-keys'],
  );

export const useCreateSshKey = () =>
  useAccountMutation(({ signal, ...body }: Body<typeof sshKeyCreateSchema>) => call(accountEndpoints.sshKeyCreate, { signal, body }), ['ssh-keys']);

export const useRemoveSshKey = () =>
  useAccountMutation(
    ({ fingerprint, signal }: { fingerprint: string; signal?: AbortSignal }) =>
      call(accountEndpoints.sshKeyRemove, { signal, body: { fingerprint } }),
    ['ssh-keys'],
  );

/**
 * Saves the account's theme or language (the caller has applied it already), optimistically: the
 * signed-in user shows it at once, and a refusal puts the previous one back, on screen too (the
 * language follows the account's, see RequireAuth), and says so.
 */
export function useSavePreferences() {
  const client = useQueryClient();
  const { queryKey } = accountQueries.me();
  return useMutation({
    mutationFn: (body: PreferencesUpdate) => call(accountEndpoints.preferences, { body }),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey });
      const previous = client.getQueryData(queryKey);
      client.setQueryData(queryKey, (me) => me && { ...me, ...body });
      return { previous };
    },
    onError: (error, body, context) => {
      client.setQueryData(queryKey, context?.previous);
      const previous = context?.previous;
      if (body.theme && previous?.theme) setThemeChoice(previous.theme);
      if (body.language && previous) storeLocale(matchLocale(previous.language) ?? 'en');
      toast.error(t('account.appearance.saveFailed', { message: error.message }));
    },
  });
}

export { useAccountSections } from './sections';
