import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminSettingsEndpoints, type SettingsUpdate } from '../../contract/admin-settings';
import { call } from '../../lib/http';
import { panelQueries } from '../../lib/panel-name';

/* The panel's settings (Aerie's `/api/application/settings`, a root admin's session). */

export const adminSettingsQueries = {
  all: () => ['admin', 'settings'] as const,
  settings: () =>
    queryOptions({
      queryKey: [...adminSettingsQueries.all(), 'view'] as const,
      queryFn: async ({ signal }) => (await call(adminSettingsEndpoints.view, { signal })).attributes,
    }),
};

/** True once the settings say no mail goes out (false while unknown, so nothing claims either way too early). */
export function usePanelSendsNoMail(): boolean {
  return useQuery(adminSettingsQueries.settings()).data?.mail_source === 'none';
}

export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, signal }: { body: SettingsUpdate; signal?: AbortSignal }) => call(adminSettingsEndpoints.update, { signal, body }),
    onSuccess: (result) => client.setQueryData(adminSettingsQueries.settings().queryKey, result.attributes),
    // The header and the page title show the name.
    onSettled: () => client.invalidateQueries({ queryKey: panelQueries.all() }),
  });
}

export function useSendTestMail() {
  return useMutation({
    mutationFn: ({ signal }: { signal?: AbortSignal }) => call(adminSettingsEndpoints.mailTest, { signal }),
  });
}
