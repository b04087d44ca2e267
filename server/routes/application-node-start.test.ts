import { expect } from 'vitest';
import { nodeConfigurationSchema } from '../../src/contract/nodes';
import { nodeHealth } from '../daemon/wings/system';
import { nodes } from '../db/repos';
import { test } from '../test/fixtures';
import type { TestPanel } from '../test/harness';
import { startNode, type MakeNode } from '../test/node-support';

/*
 * A node an operator creates through the application API is a working node: Aerie's node, started
 * on the configuration the API gives, answers with the token in it, and the panel's health check
 * reaches it (issue 25 §2).
 */

const api = async (panel: TestPanel, method: 'GET' | 'POST', url: string, payload?: object) => {
  const headers = await panel.applicationHeaders(await panel.user({ admin: true }));
  return panel.app.inject({ method, url: `/api/application${url}`, headers, payload });
};

/** The node made as a billing system or the admin area would: a location, then POST /nodes. */
const throughTheApi =
  (panel: TestPanel): MakeNode =>
  async ({ port, sftpPort }) => {
    const location = (await api(panel, 'POST', '/locations', { short: 'lab' })).json().attributes.id as number;
    const res = await api(panel, 'POST', '/nodes', {
      name: 'lab-1',
      location_id: location,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 4096,
      memory_overallocate: 0,
      disk: 10000,
      disk_overallocate: 0,
      daemon_listen: port,
      daemon_sftp: sftpPort,
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await nodes.findById(panel.db, (res.json().attributes as { id: number }).id);
    if (!row) throw new Error('the node is not stored');
    return row;
  };

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup, throughTheApi(panel)));

it('starts Aerie’s node on the configuration of a node created through the application API', { timeout: 120_000 }, async ({ panel, remote }) => {
  const config = nodeConfigurationSchema.parse((await api(panel, 'GET', `/nodes/${String(remote.node.id)}/configuration`)).json());
  expect(config).toMatchObject({ uuid: remote.node.uuid, api: { port: Number(new URL(remote.url).port) } });
  expect((await remote.call('GET', '/api/system', undefined, config.token)).status).toBe(200);
  expect(await nodeHealth(remote.url, panel.nodes.tokenOf(remote.node))).toMatchObject({ reachable: true });
});
