import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from '../components/ui/toast';
import { ApiError } from '../lib/http';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A failed background refetch of data already on screen: say so without replacing the page
    // (unless the query is a quiet poll, `meta.quiet`).
    // A query with `meta.pageShowsLostAccess` (the server page's own server) has its 403/404 shown
    // by the page, which replaces itself with "Not found": a toast would say it a second time.
    onError: (error, query) => {
      if (query.state.data === undefined || query.meta?.quiet) return;
      if (error instanceof ApiError && (error.status === 401 || (query.meta?.pageShowsLostAccess && (error.status === 403 || error.status === 404))))
        return;
      toast.error(error.message);
    },
  }),
  mutationCache: new MutationCache({
    // Mutations show their errors where they were started; `meta.toastErrors` opts into a toast.
    onError: (error, _vars, _ctx, mutation) => {
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
