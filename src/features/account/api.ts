import { queryOptions } from '@tanstack/react-query';
import { accountEndpoints } from '../../contract/account';
import { call } from '../../lib/http';

export const accountQueries = {
  all: () => ['account'] as const,
  /** The signed-in user; a 401 here means "not signed in". */
  me: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'me'] as const,
      queryFn: ({ signal }) => call(accountEndpoints.me, { signal, quiet401: true }).then((r) => r.attributes),
      staleTime: 60_000,
    }),
};
