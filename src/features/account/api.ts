import { queryOptions } from '@tanstack/react-query';
import { accountEndpoints } from '../../contract/account';
import { call, maybeSignedIn, unauthenticatedError } from '../../lib/http';

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
};
