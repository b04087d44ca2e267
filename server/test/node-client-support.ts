import path from 'node:path';
import { expect } from 'vitest';
import type { UserRow } from '../db/schema';
import { eventually } from './game-support';
import type { TestPanel } from './harness';
import type { RunningNode } from './node-support';

/*
 * A server installed on Aerie's standalone node (startNode) and its owner's client API, for the
 * tests that drive the node only as a browser would: the panel's routes and the links they sign.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export async function installedServer(panel: TestPanel, remote: RunningNode, owner?: UserRow) {
  owner ??= await panel.user();
  const server = await remote.server(owner);
  expect((await remote.call('POST', '/api/servers', { uuid: server.uuid, start_on_completion: false })).status).toBe(202);
  await eventually(
    async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirst())?.status === null,
    60_000,
  );
  const headers = await panel.bearerHeaders(owner);
  const client = (method: Method, route: string, payload?: object | string, as = headers) => {
    // The node checks a link's dates against real time (it refuses one issued before it booted); the test panel's clock stands in March.
    panel.clock.set(new Date());
    return panel.app.inject({
      method,
      url: `/api/client/servers/${server.uuid}${route}`,
      headers: typeof payload === 'string' ? { ...as, 'content-type': 'text/plain' } : as,
      payload,
    });
  };
  const volume = path.join(remote.dataDir, 'volumes', server.uuid);
  return { owner, server, headers, client, volume };
}

export function signedUrl(body: string): string {
  const url = (JSON.parse(body) as { attributes?: { url?: unknown } }).attributes?.url;
  if (typeof url !== 'string') throw new Error(`no signed url in ${body}`);
  return url;
}
