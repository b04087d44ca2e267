import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from '../components/ui/toast';
import { serverDetailKey } from '../features/servers/query-keys';
import { ApiError } from '../lib/http';
import { redirectIfTwoFactorRequired } from '../lib/two-factor-required';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

const lostAccess = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A failed background refetch of data already on screen: say so without replacing the page
    // (unless the query is a quiet poll, `meta.quiet`).
    // A 403/404 on data of a server may mean the access itself ended (a removed subuser): the
    // server page then replaces itself with "Not found", and a toast would say it a second time.
    // The server's own query (`meta.pageShowsLostAccess`) is never toasted for it; any other is
    // toasted only once a fresh look at the server shows the access is still there.
    onError: (error, query) => {
      if (redirectIfTwoFactorRequired(error)) return;
      if (query.state.data === undefined || query.meta?.quiet) return;
      if (error instanceof ApiError && error.status === 401) return;
      if (!lostAccess(error)) return void toast.error(error.message);
      if (query.meta?.pageShowsLostAccess) return;
      const [root, id] = query.queryKey;
      if (root !== 'server' || typeof id !== 'string') return void toast.error(error.message);
      const detail = serverDetailKey(id);
      void queryClient.refetchQueries({ queryKey: detail, exact: true }).then(() => {
        if (!lostAccess(queryClient.getQueryState(detail)?.error)) toast.error(error.message);
      });
    },
  }),
  mutationCache: new MutationCache({
    // Mutations show their errors where they were started; `meta.toastErrors` opts into a toast.
    onError: (error, _vars, _ctx, mutation) => {
      if (redirectIfTwoFactorRequired(error)) return;
      if (mutation.meta?.toastErrors) toast.error(error.message);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});
