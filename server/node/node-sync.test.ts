import { expect } from 'vitest';
import { runCli } from '../cli/commands';
import { eggs } from '../db/repos';
import { loadSecretBox } from '../lib/secret-box';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { startNode } from '../test/node-support';

/*
 * Issue 24 §1: every change of a server ends in one sync, and a remote node holds nothing but what
 * it fetched. Each change is made where an owner or operator makes it (the client API, the admin
 * CLI), and read back from Aerie's node process as Wings shows it (`GET /api/servers/:uuid`).
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

interface Details {
  is_suspended: boolean;
  configuration: {
    meta: { name: string };
    environment: Record<string, string>;
    build: { memory_limit: number; cpu_limit: number };
    container: { image: string };
    allocations: { mappings: Record<string, number[]> };
  };
}

it(
  'brings each change to the remote node: name, image, startup variable, allocations, limits, suspension',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await remote.server(owner);
    expect((await remote.call('POST', '/api/servers', { uuid: server.uuid, start_on_completion: false })).status).toBe(202);
    await eventually(
      async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirst())?.status === null,
      60_000,
    );
    const details = async () => (await (await remote.call('GET', `/api/servers/${server.uuid}`)).json()) as Details;
    const headers = await panel.bearerHeaders(owner);
    const client = async (method: 'POST' | 'PUT', route: string, payload: unknown) => {
      const res = await panel.app.inject({ method, url: `/api/client/servers/${server.uuid}${route}`, headers, payload: payload as object });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const cli = (...args: string[]) =>
      runCli(args, { db: panel.db, nodes: panel.nodes, clock: panel.clock, box: loadSecretBox(panel.dataDir), ports: panel.config.allocationPorts });

    await client('POST', '/settings/rename', { name: 'Renamed on the panel' });
    expect((await details()).configuration.meta.name).toBe('Renamed on the panel');

    const second = 'ghcr.io/parkervcp/yolks:nodejs_20';
    const egg = await eggs.findById(panel.db, server.egg_id);
    const images = { ...egg?.docker_images, 'Node.js 20': second };
    await panel.db
      .updateTable('eggs')
      .set({ docker_images: JSON.stringify(images) })
      .where('id', '=', server.egg_id)
      .execute();
    await client('PUT', '/settings/docker-image', { docker_image: second });
    expect((await details()).configuration.container.image).toBe(second);

    await client('PUT', '/startup/variable', { key: 'MAX_PLAYERS', value: '7' });
    expect((await details()).configuration.environment.MAX_PLAYERS).toBe('7');

    await client('POST', '/network/allocations', {});
    expect(Object.values((await details()).configuration.allocations.mappings).flat()).toHaveLength(2);

    await cli('server:update', '--server', server.uuid_short, '--memory', '640', '--cpu', '150');
    expect((await details()).configuration.build).toMatchObject({ memory_limit: 640, cpu_limit: 150 });

    await cli('server:status', '--server', server.uuid_short, '--status', 'suspended');
    expect(await details()).toMatchObject({ is_suspended: true });
  },
);
