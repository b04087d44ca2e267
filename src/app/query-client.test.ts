import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../components/ui/toast';
import { serverQueries } from '../features/servers/api';
import { ApiError } from '../lib/http';
import { queryClient } from './query-client';

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

const notFound = () =>
  new ApiError(404, [{ code: 'NotFoundHttpException', status: '404', detail: 'The requested resource does not exist on this server.' }]);

/** A background refetch of data already on screen that fails with `error`. */
async function refetchFailing(queryKey: readonly unknown[], error: ApiError, meta?: Record<string, unknown>) {
  queryClient.setQueryData(queryKey, { shown: true });
  await queryClient
    // eslint-disable-next-line @tanstack/query/exhaustive-deps -- the key names cached data; the failure is the test's
    .fetchQuery({
      queryKey,
      queryFn: () => Promise.reject(error),
      retry: false,
      staleTime: 0,
      ...(meta ? { meta } : {}),
    })
    .catch(() => undefined);
}

describe('background errors', () => {
  it('a removed subuser’s server refetch (404) is not toasted: the page says “Not found” once', async () => {
    const shown = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    const detail = serverQueries.detail('abcd1234');
    await refetchFailing(detail.queryKey, notFound(), detail.meta);
    expect(shown).not.toHaveBeenCalled();
  });

  it('other background failures still say so in a toast', async () => {
    const shown = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    await refetchFailing(['server', 'abcd1234', 'files', '/'], notFound());
    expect(shown).toHaveBeenCalledWith('The requested resource does not exist on this server.');
  });
});
