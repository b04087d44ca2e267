import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { activityQueries } from '../activity/api';
import { fileQueries } from '../files/api';
import { invalidateServer, serverQueries } from './api';

const server = { routeId: 'abcd1234', uuid: 'abcd1234-5678-4abc-8def-0123456789ab' };
const other = { routeId: 'ffff0000', uuid: 'ffff0000-5678-4abc-8def-0123456789ab' };

function seeded() {
  const client = new QueryClient();
  const keys = [
    serverQueries.detail(server.routeId).queryKey,
    fileQueries.list(server, '/').queryKey,
    fileQueries.contents(server, '/a.txt').queryKey,
    activityQueries.list(server, { page: 1, event: '', sort: '-timestamp' }).queryKey,
    serverQueries.detail(other.routeId).queryKey,
    fileQueries.list(other, '/').queryKey,
    serverQueries.list({ page: 1, search: '', scope: 'member' }).queryKey,
  ];
  for (const key of keys) client.setQueryData(key, 'x');
  return { client, keys };
}

const stale = (client: QueryClient) =>
  client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey);

describe('per-server query keys', () => {
  it('all sit under one root, so one invalidation covers the detail and every sub-resource', async () => {
    const { client, keys } = seeded();
    await client.invalidateQueries({ queryKey: serverQueries.root(server.routeId) });
    expect(stale(client)).toEqual(keys.slice(0, 4));
  });

  it('invalidateServer also refreshes the server lists, and a page opened by uuid', async () => {
    const { client, keys } = seeded();
    const byUuid = { routeId: server.uuid, uuid: server.uuid };
    client.setQueryData(fileQueries.list(byUuid, '/').queryKey, []);
    await invalidateServer(client, { identifier: server.routeId, uuid: server.uuid });
    expect(stale(client)).toEqual([...keys.slice(0, 4), keys[6], fileQueries.list(byUuid, '/').queryKey]);
  });
});
