import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { LocalDaemon } from '../daemon/local';
import { nodeDaemons } from './node-daemons';
import { loadSecretBox } from '../lib/secret-box';
import { it } from '../test/fixtures';
import { serverConfiguration, stopConfiguration } from './server-configuration';
import { createServer } from './servers';

it("builds Wings' configuration document from the server, its egg, variables and allocations", async ({ panel }) => {
  const owner = await panel.user();
  const server = await panel.server(owner, { name: 'Survival', description: 'SMP', memory: 2048, disk: 10240, cpu: 150, port: 25570 });
  const jar = await panel.db.selectFrom('egg_variables').select('id').where('env_variable', '=', 'SERVER_JARFILE').executeTakeFirstOrThrow();
  await panel.db.insertInto('server_variables').values({ server_id: server.id, variable_id: jar.id, variable_value: 'paper.jar' }).execute();
  await panel.db
    .insertInto('allocations')
    .values({ node_id: server.node_id, ip: '127.0.0.1', ip_alias: null, port: 25600, server_id: server.id, notes: null })
    .execute();
  await panel.db
    .insertInto('allocations')
    .values({ node_id: server.node_id, ip: '10.0.0.2', ip_alias: null, port: 27015, server_id: server.id, notes: null })
    .execute();
  const egg = await panel.db.selectFrom('eggs').select('uuid').where('id', '=', server.egg_id).executeTakeFirstOrThrow();

  const configuration = await serverConfiguration(panel.db, server.uuid);
  expect(configuration).toEqual({
    settings: {
      uuid: server.uuid,
      meta: { name: 'Survival', description: 'SMP' },
      suspended: false,
      environment: {
        SERVER_JARFILE: 'paper.jar',
        MINECRAFT_VERSION: 'latest',
        BUILD_NUMBER: 'latest',
        STARTUP: server.startup,
        SERVER_MEMORY: '2048',
        SERVER_IP: '127.0.0.1',
        SERVER_PORT: '25570',
        P_SERVER_UUID: server.uuid,
        P_SERVER_ALLOCATION_LIMIT: '3',
      },
      invocation: server.startup,
      skip_egg_scripts: false,
      build: { memory_limit: 2048, swap: 0, io_weight: 500, cpu_limit: 150, threads: '', disk_space: 10240, oom_disabled: false },
      container: { image: server.docker_image, oom_disabled: false, requires_rebuild: false },
      allocations: {
        force_outgoing_ip: false,
        default: { ip: '127.0.0.1', port: 25570 },
        mappings: { '127.0.0.1': [25570, 25600], '10.0.0.2': [27015] },
      },
      egg: { id: egg.uuid, file_denylist: [] },
    },
    // The Paper egg's done line and stop command.
    process_configuration: {
      startup: { done: [')! For help, type '], user_interaction: [], strip_ansi: false },
      stop: { type: 'command', value: 'stop' },
    },
  });
  await panel.db.updateTable('servers').set({ status: 'suspended', threads: '0-1' }).where('id', '=', server.id).execute();
  expect((await serverConfiguration(panel.db, server.uuid))?.settings).toMatchObject({ suspended: true, build: { threads: '0-1' } });
  expect(await serverConfiguration(panel.db, randomUUID())).toBeUndefined();
});

it('serves a server created by another process after the panel started, with its disk limit', async ({ panel }) => {
  const owner = await panel.user();
  // The admin CLI: its own daemon over the same data dir and database.
  const cli = new LocalDaemon(panel.dataDir, { configurationSource: (uuid) => serverConfiguration(panel.db, uuid) });
  const server = await createServer(
    panel.db,
    nodeDaemons(cli, loadSecretBox(panel.dataDir)),
    { ownerId: owner.id, name: 'From the CLI', disk: 1 },
    panel.clock.now(),
  );
  const headers = await panel.bearerHeaders(owner);
  const url = `/api/client/servers/${server.uuid}/files`;
  const list = await panel.app.inject({ method: 'GET', url: `${url}/list?directory=%2F`, headers });
  expect(list.statusCode, list.body).toBe(200);
  const big = await panel.app.inject({
    method: 'POST',
    url: `${url}/write?file=big.bin`,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    payload: Buffer.alloc(2 * 1024 * 1024),
  });
  expect(big.statusCode, big.body).toBe(400);
  expect(big.json().errors[0].code).toBe('InsufficientDiskSpaceException');
});

it("gives the egg's done lines and its stop as a command or a signal", async ({ panel }) => {
  const owner = await panel.user();
  const server = await panel.server(owner);
  const setEgg = (values: { config_startup: string; config_stop: string }) =>
    panel.db.updateTable('eggs').set(values).where('id', '=', server.egg_id).execute();
  const process = async () => (await serverConfiguration(panel.db, server.uuid))?.process_configuration;

  await setEgg({ config_startup: '{"done": ["Ready", ""]}', config_stop: '^C' });
  expect(await process()).toMatchObject({ startup: { done: ['Ready'] }, stop: { type: 'signal', value: '^C' } });
  await setEgg({ config_startup: '{"done": "Listening"}', config_stop: 'SIGTERM' });
  expect(await process()).toMatchObject({ startup: { done: ['Listening'] }, stop: { type: 'signal', value: 'SIGTERM' } });
  // What the migration gives an existing egg, and a column that does not parse: running at once, stopped with `stop`.
  await setEgg({ config_startup: '{}', config_stop: 'stop' });
  expect(await process()).toMatchObject({ startup: { done: [] }, stop: { type: 'command', value: 'stop' } });
  await setEgg({ config_startup: 'not json', config_stop: 'end now' });
  expect(await process()).toMatchObject({ startup: { done: [] }, stop: { type: 'command', value: 'end now' } });
  expect(stopConfiguration('^c')).toEqual({ type: 'signal', value: '^C' });
});
