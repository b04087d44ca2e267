import { describe, expect } from 'vitest';
import { it } from '../test/fixtures';
import { randomUUID } from 'node:crypto';
import { createNode, deleteNode } from '../services/nodes';
import type { TestPanel } from '../test/harness';
import { connectOrigins, nodeOrigins } from './node-origins';

describe('the client API rate limit', () => {
  it('answers 429 with Retry-After and an error document once a user passes the limit, and counts per user', async ({ makePanel }) => {
    const panel = await makePanel({ apiRateLimit: 3 });
    const alice = await panel.bearerHeaders(await panel.user());
    const bob = await panel.bearerHeaders(await panel.user());
    for (let i = 0; i < 3; i += 1) expect((await panel.app.inject({ url: '/api/client', headers: alice })).statusCode).toBe(200);

    const refused = await panel.app.inject({ url: '/api/client', headers: alice });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ errors: [{ code: 'ThrottleRequestsException', status: '429', detail: 'Too Many Attempts.' }] });

    // Another user, and the sign-in routes, are not held back by Alice's bucket.
    expect((await panel.app.inject({ url: '/api/client', headers: bob })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/sanctum/csrf-cookie', headers: alice })).statusCode).toBe(204);
  });

  it('counts signed-out requests per address', async ({ makePanel }) => {
    const panel = await makePanel({ apiRateLimit: 2 });
    const from = (ip: string) => panel.app.inject({ url: '/api/client', remoteAddress: ip });
    expect((await from('203.0.113.1'))?.statusCode).toBe(401);
    expect((await from('203.0.113.1'))?.statusCode).toBe(401);
    expect((await from('203.0.113.1'))?.statusCode).toBe(429);
    expect((await from('203.0.113.2'))?.statusCode).toBe(401);
  });

  it('is off when the limit is 0', async ({ makePanel }) => {
    const panel = await makePanel({ apiRateLimit: 0 });
    const headers = await panel.bearerHeaders(await panel.user());
    for (let i = 0; i < 5; i += 1) expect((await panel.app.inject({ url: '/api/client', headers })).statusCode).toBe(200);
    expect(panel.app.hasDecorator('rateLimit')).toBe(false);
  });
});

describe('security headers', () => {
  it('promise HTTPS (HSTS) only when the panel says it is served over HTTPS', async ({ panel: plain, makePanel }) => {
    const secure = await makePanel({ secureCookies: true });
    expect((await plain.app.inject({ url: '/api/client' })).headers['strict-transport-security']).toBeUndefined();
    expect(String((await secure.app.inject({ url: '/api/client' })).headers['strict-transport-security'])).toContain('max-age=');
    expect((await plain.app.inject({ url: '/api/client' })).headers['referrer-policy']).toBe('same-origin');
  });

  it('let the SPA connect to each remote node over http(s) and ws(s), and to nothing else', () => {
    expect(connectOrigins(['https://node1.example.com:8080', 'http://10.0.0.5:8080/', 'javascript:alert(1)', 'not a url'])).toEqual([
      'https://node1.example.com:8080',
      'wss://node1.example.com:8080',
      'http://10.0.0.5:8080',
      'ws://10.0.0.5:8080',
    ]);
  });
});

describe('the nodes the browser may connect to', () => {
  const nodeInput = { scheme: 'https' as const, daemonPort: 8080, sftpPort: 2022, ports: null, ip: null, memory: 0, disk: 0 };
  const csp = async (panel: TestPanel) => String((await panel.app.inject({ url: '/api/client' })).headers['content-security-policy']);

  it('are the nodes as they are now: one added while the panel runs is named on the next answer, one deleted is not', async ({ panel }) => {
    expect(await csp(panel)).not.toContain('node7.example.com');
    await createNode(panel.db, panel.nodes, { ...nodeInput, name: 'eu-7', fqdn: 'node7.example.com' });
    expect(await csp(panel)).toMatch(/connect-src 'self' https:\/\/node7\.example\.com:8080 wss:\/\/node7\.example\.com:8080/);
    await deleteNode(panel.db, 'eu-7');
    expect(await csp(panel)).not.toContain('node7.example.com');
  });

  it('are read again within seconds when another process (the CLI) adds one', async ({ panel }) => {
    let now = 0;
    const origins = nodeOrigins(panel.db, 5_000, () => now);
    await origins.refresh();
    await panel.db
      .insertInto('nodes')
      .values({
        uuid: randomUUID(),
        name: 'cli-made',
        fqdn: 'node8.example.com',
        sftp_port: 2022,
        maintenance_mode: 0,
        daemon_base_url: 'http://node8.example.com:8080',
        daemon_token: 'k',
        daemon_token_id: 'cli-made-node-01',
      })
      .execute();
    now = 4_000;
    await origins.refresh();
    expect(origins.current()).toEqual([]);
    now = 5_000;
    await origins.refresh();
    expect(origins.current()).toEqual(['http://node8.example.com:8080', 'ws://node8.example.com:8080']);
  });
});

describe('query filters', () => {
  it('refuse unknown filters where an endpoint has filters, and ignore stray keys where it has none', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const headers = await panel.bearerHeaders(owner);
    const activity = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/activity?filter[ip]=1`, headers });
    expect(activity.statusCode).toBe(400);
    expect(activity.json().errors[0].code).toBe('InvalidFilterQuery');
    const files = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/list?filter[ip]=1`, headers });
    expect(files.statusCode).toBe(200);
  });
});

describe('Cache-Control', () => {
  it('is no-store on API answers, errors included, on the auth routes and on file contents', async ({ files }) => {
    const { panel, ownerHeaders: headers } = files;
    files.put('notes.txt', 'private');
    const answers = [
      await panel.app.inject({ url: '/api/client', headers }),
      await panel.app.inject({ url: '/api/client' }),
      await panel.app.inject({ url: '/api/client/nowhere', headers }),
      await panel.app.inject({ url: '/sanctum/csrf-cookie' }),
      await panel.app.inject({ method: 'POST', url: '/auth/login', payload: { user: 'nobody', password: 'x' } }),
      await files.call('GET', 'contents', { query: { file: '/notes.txt' } }),
      await files.call('GET', 'download', { query: { file: '/notes.txt' } }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 404, 204, 400, 200, 200]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('pagination links', () => {
  it('are relative, never built from the Host header, when APP_URL is not set', async ({ panel }) => {
    const owner = await panel.user();
    await panel.server(owner);
    await panel.server(owner);
    const headers = { ...(await panel.bearerHeaders(owner)), host: 'evil.example' };
    const res = await panel.app.inject({ url: '/api/client?per_page=1', headers });
    expect(res.json().meta.pagination.links).toEqual({ next: '/api/client?per_page=1&page=2' });
  });

  it('are absolute under APP_URL', async ({ makePanel }) => {
    const panel = await makePanel({ appUrl: 'https://panel.example.com/' });
    const owner = await panel.user();
    await panel.server(owner);
    await panel.server(owner);
    const headers = { ...(await panel.bearerHeaders(owner)), host: 'evil.example' };
    const res = await panel.app.inject({ url: '/api/client?per_page=1&page=2', headers });
    expect(res.json().meta.pagination.links).toEqual({ previous: 'https://panel.example.com/api/client?per_page=1&page=1' });
  });
});

describe('JSON bodies', () => {
  it('refuse an escaped lone surrogate, in a value or a key, and change nothing; a pair is fine', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const headers = { ...(await panel.bearerHeaders(owner)), 'content-type': 'application/json' };
    const rename = (payload: string) =>
      panel.app.inject({ method: 'POST', url: `/api/client/servers/${server.uuid}/settings/rename`, headers, payload });
    for (const payload of ['{"name":"a\\ud800b"}', '{"name":"ok","d\\udc00":1}', '{"name":"ok","x":["\\udfff"]}']) {
      const res = await rename(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ errors: [{ code: 'BadRequestHttpException', status: '400', detail: 'The JSON payload is malformed.' }] });
    }
    const details = () => panel.app.inject({ url: `/api/client/servers/${server.uuid}`, headers });
    expect((await details()).json().attributes.name).toBe(server.name);
    expect((await rename('{"name":"smile \\ud83d\\ude00"}')).statusCode).toBe(204);
    expect((await details()).json().attributes.name).toBe('smile 😀');
    // Prototype poisoning is still refused.
    expect((await rename('{"name":"x","__proto__":{"admin":true}}')).statusCode).toBe(400);
  });

  it('read an empty body as empty input, as the reference: a route needing fields names them', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const headers = { ...(await panel.bearerHeaders(owner)), 'content-type': 'application/json' };
    const post = (url: string) => panel.app.inject({ method: 'POST', url: `/api/client/servers/${server.uuid}/${url}`, headers, payload: '' });
    const rename = await post('settings/rename');
    expect(rename.statusCode).toBe(422);
    expect(rename.json().errors[0]).toMatchObject({ code: 'ValidationException', source: { field: 'name' } });
    const added = await post('network/allocations');
    expect(added.statusCode, added.body).toBe(200);
  });
});
