import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityBatch } from './activity-batch';
import type { ActivityEntry } from './panel-client';
import { PanelClient, PanelError } from './panel-client';
import { NodeConfigError, parseNodeConfig } from './config';

/* The node's side of the remote API: Wings' retry rules, the activity batch, and its config.yml. */

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A panel answering each request with the next status of `statuses` (the last one repeats). */
async function panelAnswering(statuses: number[]): Promise<{ url: string; seen: { auth: string | undefined; url: string | undefined }[] }> {
  const seen: { auth: string | undefined; url: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ auth: req.headers.authorization, url: req.url });
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? 500;
    res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? JSON.stringify({ data: [], meta: { last_page: 1 } }) : '{}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, seen };
}

describe('PanelClient', () => {
  it('presents Bearer <token_id>.<token>, retries a 5xx and never a 4xx', async () => {
    const flaky = await panelAnswering([502, 503, 200]);
    const client = new PanelClient({ remote: flaky.url, tokenId: 'abc', token: 'secret', retryForMs: 10_000 });
    expect(await client.serverUuids()).toEqual([]);
    expect(flaky.seen).toHaveLength(3);
    expect(flaky.seen[0]).toEqual({ auth: 'Bearer abc.secret', url: '/api/remote/servers?page=0&per_page=50' });

    const refusing = await panelAnswering([403]);
    const refused = new PanelClient({ remote: refusing.url, tokenId: 'abc', token: 'secret', retryForMs: 10_000 });
    await expect(refused.resetServers()).rejects.toBeInstanceOf(PanelError);
    expect(refusing.seen).toHaveLength(1);
    // A 404 for a configuration is "the panel has no such server here", not an error.
    const missing = await panelAnswering([404]);
    expect(await new PanelClient({ remote: missing.url, tokenId: 'a', token: 'b' }).serverConfiguration('x')).toBeUndefined();
  });

  it('gives up on a panel that keeps failing once its retry time is spent', async () => {
    const down = await panelAnswering([500]);
    const client = new PanelClient({ remote: down.url, tokenId: 'a', token: 'b', retryForMs: 1_000 });
    await expect(client.reportInstall('s', true, false)).rejects.toThrow(/HTTP 500/);
    expect(down.seen.length).toBeGreaterThanOrEqual(2);
  });
});

describe('ActivityBatch', () => {
  const entry = (n: number): ActivityEntry => ({ user: null, server: 's', event: 'server:sftp.write', metadata: { n }, ip: '::1', timestamp: '' });

  it('sends batches of 100, keeps what the panel did not take, and holds a bounded number', async () => {
    const sent: number[] = [];
    let fail = true;
    const batch = new ActivityBatch(
      async (data) => {
        if (fail) throw new Error('panel down');
        sent.push(data.length);
      },
      () => undefined,
      250,
    );
    for (let i = 0; i < 300; i += 1) batch.add(entry(i));
    expect(batch.size).toBe(250);
    await batch.flush();
    expect(batch.size).toBe(250);
    fail = false;
    await batch.stop();
    expect(sent).toEqual([100, 100, 50]);
    expect(batch.size).toBe(0);
  });
});

describe('the node config.yml', () => {
  const good = `uuid: 3f0c8b4e-8a35-4a4b-9b43-2f1c1a0f7e11
token_id: abcdefgh12345678
token: ${'t'.repeat(64)}
api: { host: 0.0.0.0, port: 8080, upload_limit: 100 }
system: { data: /srv/aerie/volumes, backup_directory: /srv/aerie/backups, sftp: { bind_port: 2022 } }
remote: https://panel.example.com/
allowed_origins: []
`;
  it('reads what node:config prints', () => {
    expect(parseNodeConfig(good)).toMatchObject({
      dataDir: '/srv/aerie',
      port: 8080,
      remote: 'https://panel.example.com',
      uploadLimitBytes: 100 * 1024 * 1024,
    });
  });
  it('says in one line what is wrong', () => {
    expect(() => parseNodeConfig(good.replace('remote: https://panel.example.com/', 'remote: ftp://x'))).toThrow(NodeConfigError);
    expect(() => parseNodeConfig(good.replace('/srv/aerie/volumes', 'relative/volumes'))).toThrow(/system\.data/);
    expect(() => parseNodeConfig('::: not yaml')).toThrow(NodeConfigError);
    expect(() => parseNodeConfig(good.replace(/token: t+/, 'token: short'))).toThrow(/^config\.yml: token: /);
  });
  it('stops the node with one line and exit code 1 when the file is wrong', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-node-')), 'config.yml');
    fs.writeFileSync(file, good.replace('port: 8080', 'port: 99999'));
    const run = spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/node-main.ts', '--config', file], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([`${file}: api.port: Too big: expected number to be <=65535`]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
