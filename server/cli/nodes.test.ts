import path from 'node:path';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { nodes } from '../db/repos';
import { isSealed, loadSecretBox } from '../lib/secret-box';
import { test } from '../test/fixtures';
import { cliFailure, cliRunner } from '../test/cli-support';
import { freePort } from '../test/node-support';
import { textOf, type CliDeps } from './commands';

// Issue 24 §4: nodes are attached, configured, listed and removed from the CLI.
const it = test
  .extend('deps', async ({ panel }): Promise<CliDeps> => ({
    db: panel.db,
    nodes: panel.nodes,
    clock: panel.clock,
    box: loadSecretBox(panel.dataDir),
    publicUrl: 'https://panel.example.com',
  }))
  .extend('run', async ({ deps }) => cliRunner(deps))
  .extend('failure', async ({ deps }) => cliFailure(deps));

describe('node commands', () => {
  it('create a node with Wings credentials the remote API accepts, its token stored sealed', async ({ panel, run }) => {
    const made = await run('node:create', '--name', 'eu-1', '--fqdn', 'node1.example.com', '--daemon-port', '8443', '--ports', '30000-30100');
    expect(Object.keys(made).sort()).toEqual(['id', 'location', 'name', 'token', 'token_id', 'uuid']);
    expect(made.location).toBe('default');
    expect(made.token_id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(made.token).toMatch(/^[A-Za-z0-9]{64}$/);
    const row = await nodes.findByName(panel.db, 'eu-1');
    expect(row).toMatchObject({ daemon_base_url: 'https://node1.example.com:8443', port_start: 30000, port_end: 30100, sftp_port: 2022 });
    expect(isSealed(row?.daemon_token ?? '')).toBe(true);
    const res = await panel.app.inject({
      method: 'GET',
      url: '/api/remote/servers',
      headers: { authorization: `Bearer ${String(made.token_id)}.${String(made.token)}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(0);
  });

  it('put a node in the location --location names, made when missing; no node is left without one', async ({ panel, run }) => {
    const made = await run('node:create', '--name', 'eu-1', '--fqdn', 'n1.example.com', '--daemon-port', '8080', '--location', 'eu-west');
    expect(made.location).toBe('eu-west');
    await run('node:create', '--name', 'eu-2', '--fqdn', 'n2.example.com', '--daemon-port', '8080', '--location', 'eu-west');
    await run('node:create', '--name', 'us-1', '--fqdn', 'n3.example.com', '--daemon-port', '8080');
    const rows = await panel.db
      .selectFrom('nodes')
      .innerJoin('locations', 'locations.id', 'nodes.location_id')
      .select(['name', 'short'])
      .orderBy('nodes.id')
      .execute();
    expect(rows).toEqual([
      { name: 'eu-1', short: 'eu-west' },
      { name: 'eu-2', short: 'eu-west' },
      { name: 'us-1', short: 'default' },
    ]);
  });

  it('refuse bad input with a usage error and make nothing', async ({ panel, run, failure }) => {
    const base = ['--fqdn', 'n.example.com', '--daemon-port', '8080'];
    expect(await failure(['node:create', '--name', '../x', ...base])).toMatchObject({ exitCode: 2, message: expect.stringMatching(/name/) });
    expect(await failure(['node:create', '--name', 'a', '--fqdn', 'bad host', '--daemon-port', '8080'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['node:create', '--name', 'a', ...base.slice(0, 2), '--daemon-port', '70000'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['node:create', '--name', 'a', ...base, '--scheme', 'ftp'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['node:create', '--name', 'a', ...base, '--ports', '200-100'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['node:create', '--name', 'a', ...base, '--ip', 'example.com'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['node:create', '--name', 'local', ...base])).toMatchObject({ exitCode: 2, message: expect.stringMatching(/own node/) });
    expect(await nodes.all(panel.db)).toEqual([]);
    await run('node:create', '--name', 'a', ...base);
    expect(await failure(['node:create', '--name', 'a', ...base])).toMatchObject({ exitCode: 2, message: expect.stringMatching(/exists already/) });
  });

  it("print the node's Wings config.yml with its credentials and, given a data dir, paths under it", async ({ run, failure }) => {
    const made = await run('node:create', '--name', 'eu-1', '--fqdn', 'Node1.Example.com', '--daemon-port', '8443', '--sftp-port', '2222');
    const config = parse(textOf(await run('node:config', '--name', 'eu-1', '--data-dir', '/srv/aerie-node')) ?? '') as Record<string, unknown>;
    expect(config).toMatchObject({
      uuid: made.uuid,
      token_id: made.token_id,
      token: made.token,
      api: { host: '0.0.0.0', port: 8443, ssl: { enabled: true, cert: '/etc/letsencrypt/live/node1.example.com/fullchain.pem' } },
      system: { data: path.join('/srv/aerie-node', 'volumes'), backup_directory: path.join('/srv/aerie-node', 'backups'), sftp: { bind_port: 2222 } },
      remote: 'https://panel.example.com',
    });
    expect(await failure(['node:config', '--name', 'nope'])).toMatchObject({ exitCode: 2 });
  });

  it('list every node with its servers and whether it answers, saying why not', async ({ panel, run }) => {
    await panel.server(await panel.user());
    const port = await freePort();
    await run('node:create', '--name', 'down', '--fqdn', '127.0.0.1', '--daemon-port', String(port), '--scheme', 'http');
    const listed = (await run('node:list', '--json')).nodes as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({ name: 'local', address: 'in this panel', servers: 1, reachable: true, version: 'this panel' }),
      expect.objectContaining({
        name: 'down',
        address: `http://127.0.0.1:${port}`,
        servers: 0,
        reachable: false,
        reason: expect.stringMatching(/ECONNREFUSED/),
      }),
    ]);
    expect(textOf(await run('node:list'))).toMatch(/down\s+http:\/\/127\.0\.0\.1:\d+.*no: .*ECONNREFUSED/);
  });

  it("leaves new servers on the panel's own node when a Wings node was attached first", async ({ panel, run }) => {
    await run('node:create', '--name', 'eu-1', '--fqdn', 'n.example.com', '--daemon-port', '8080');
    const server = await panel.server(await panel.user());
    expect(server.node_id).toBe((await nodes.local(panel.db))?.id);
    expect((await nodes.local(panel.db))?.name).toBe('local');
  });

  it("delete an empty node, never one with servers, nor the panel's own", async ({ panel, run, failure }) => {
    const server = await panel.server(await panel.user());
    await run('node:create', '--name', 'eu-1', '--fqdn', 'n.example.com', '--daemon-port', '8080');
    const node = await nodes.findByName(panel.db, 'eu-1');
    await panel.db
      .updateTable('servers')
      .set({ node_id: node?.id ?? 0 })
      .where('id', '=', server.id)
      .execute();
    expect(await failure(['node:delete', '--name', 'eu-1'])).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/1 server\(s\) live on eu-1/),
    });
    expect(await failure(['node:delete', '--name', 'local'])).toMatchObject({ exitCode: 2, message: expect.stringMatching(/own node/) });
    await panel.db
      .updateTable('servers')
      .set({ node_id: (await nodes.findByName(panel.db, 'local'))?.id ?? 0 })
      .where('id', '=', server.id)
      .execute();
    expect(await run('node:delete', '--name', 'eu-1')).toEqual({ deleted: 'eu-1' });
    expect(await nodes.findByName(panel.db, 'eu-1')).toBeUndefined();
  });

  it('server:create --node places a server on the node named, and refuses an unknown node or one without a free port', async ({
    panel,
    run,
    failure,
  }) => {
    const owner = await panel.user();
    const made = await run('server:create', '--owner', owner.email, '--name', 'Placed', '--node', 'local');
    expect(made).toMatchObject({ name: 'Placed', node: 'local', allocation: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    expect(await failure(['server:create', '--owner', owner.email, '--name', 'Lost', '--node', 'nowhere'])).toEqual({
      message: 'No node named nowhere.',
      exitCode: 2,
    });
    await run('node:create', '--name', 'tiny', '--fqdn', 'tiny.example.com', '--daemon-port', String(await freePort()), '--ports', '30000-30000');
    const tiny = await nodes.findByName(panel.db, 'tiny');
    await panel.db
      .insertInto('allocations')
      .values({ node_id: tiny?.id ?? 0, ip: '127.0.0.1', ip_alias: null, port: 30000, server_id: Number(made.id), notes: null })
      .execute();
    expect(await failure(['server:create', '--owner', owner.email, '--name', 'Full', '--node', 'tiny'])).toMatchObject({
      message: expect.stringContaining('Node tiny has no free port'),
      exitCode: 2,
    });
  });
});
