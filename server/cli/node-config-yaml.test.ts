import { describe, expect } from 'vitest';
import { nodeConfigYaml } from '../../src/contract/node-config-yaml';
import { nodeConfigurationSchema } from '../../src/contract/nodes';
import { loadSecretBox } from '../lib/secret-box';
import { cliRunner } from '../test/cli-support';
import { it } from '../test/fixtures';

/*
 * Issue 25 §3: the admin area's node page shows the node's config.yml, rendered in the browser
 * from the application API's `configuration` JSON. It must be the very text `panel node:config`
 * prints, so one set of setup steps fits both.
 */
describe('a node’s config.yml', () => {
  it('is the same text from the CLI and from the configuration the SPA renders', async ({ panel }) => {
    const admin = await panel.user({ admin: true });
    const headers = await panel.applicationHeaders(admin);
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      panel.app.inject({ method, url: `/api/application${url}`, headers, ...(payload ? { payload } : {}) });
    const location = (await api('POST', '/locations', { short: 'eu' })).json().attributes.id as number;
    const made = await api('POST', '/nodes', {
      name: 'wings-1',
      location_id: location,
      fqdn: 'node1.example.com',
      scheme: 'https',
      memory: 8192,
      memory_overallocate: 0,
      disk: 50000,
      disk_overallocate: 0,
      upload_size: 256,
      daemon_listen: 8080,
      daemon_sftp: 2022,
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await api('GET', `/nodes/${String(made.json().attributes.id)}/configuration`);
    expect(res.statusCode, res.body).toBe(200);
    const configuration = nodeConfigurationSchema.parse(res.json());

    const run = cliRunner({
      db: panel.db,
      nodes: panel.nodes,
      clock: panel.clock,
      box: loadSecretBox(panel.dataDir),
      publicUrl: configuration.remote,
    });
    const printed = await run('node:config', '--name', 'wings-1', '--json');
    const text = nodeConfigYaml(configuration);
    expect(printed.config).toBe(text);
    expect(text).toContain(`token: ${configuration.token}\n`);
    expect(text).toMatch(/^debug: false\nuuid: /);
  });
});
