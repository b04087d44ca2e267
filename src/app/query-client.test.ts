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
const FILES = ['server', 'abcd1234', 'files', '/'] as const;
const detail = serverQueries.detail('abcd1234');

/** Data already on screen under `queryKey`, then a background refetch that ends as `result` does. */
async function refetch(queryKey: readonly unknown[], result: () => Promise<unknown>, meta?: Record<string, unknown>) {
  queryClient.setQueryData(queryKey, { shown: true });
  await queryClient.fetchQuery({ queryKey, queryFn: result, retry: false, staleTime: 0, ...(meta ? { meta } : {}) }).catch(() => undefined);
}

/** The server's own query in the cache, answering its next refetch with `result`. */
async function serverAnswers(result: () => Promise<unknown>) {
  await refetch(detail.queryKey, () => Promise.resolve({ shown: true }), detail.meta);
  queryClient
    .getQueryCache()
    .find({ queryKey: detail.queryKey })
    ?.setOptions({ queryKey: detail.queryKey, queryFn: result, retry: false, meta: detail.meta });
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('background errors', () => {
  it('a removed subuser’s server refetch (404) is not toasted: the page says “Not found” once', async () => {
    const shown = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    await refetch(detail.queryKey, () => Promise.reject(notFound()), detail.meta);
    expect(shown).not.toHaveBeenCalled();
  });

  it('a page’s 404 that comes from lost access is not toasted either', async () => {
    const shown = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    await serverAnswers(() => Promise.reject(notFound()));
    await refetch(FILES, () => Promise.reject(notFound()));
    await settle();
    expect(shown).not.toHaveBeenCalled();
  });

  it('a page’s 404 with the access still there says so in a toast', async () => {
    const shown = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    await serverAnswers(() => Promise.resolve({ shown: true }));
    await refetch(FILES, () => Promise.reject(notFound()));
    await vi.waitFor(() => expect(shown).toHaveBeenCalledWith('The requested resource does not exist on this server.'));
  });
});
