import { describe, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { it } from './test/fixtures';

describe('app', () => {
  it('answers an unknown API route with a 404 error document', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: [{ code: 'NotFoundHttpException', status: '404', detail: expect.stringMatching(/\S/) }] });
  });

  // attacks T-LEAK-4
  it('answers malformed JSON with a 400 error document', async ({ panel }) => {
    const user = await panel.user();
    const headers = await panel.bearerHeaders(user);
    const res = await panel.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].code).toBe('BadRequestHttpException');
  });

  it('creates servers with a primary allocation and a volume', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    expect(server.uuid_short).toBe(server.uuid.slice(0, 8));
    expect(server.allocation_id).not.toBeNull();
  });

  // attacks T-DOS-4 (oversize JSON body) and T-LEAK-4
  it('answers a body over the limit with 413 and an error document', async ({ panel }) => {
    const res = await panel.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ user: 'x', password: 'y'.repeat(panel.config.maxBodyBytes + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0]).toMatchObject({ status: '413', code: 'PayloadTooLargeHttpException' });
  });

  // attacks T-XSS-1
  it('sends security headers on every answer', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(res.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  // attacks T-CSRF-1
  it('refuses a cookie-authenticated API change without the CSRF header (419) and changes nothing', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const { cookie, 'x-xsrf-token': token } = await panel.sessionHeaders(owner);
    const url = `/api/client/servers/${server.uuid}/files/create-folder`;
    const payload = { root: '/', name: 'made-by-csrf' };
    for (const headers of [{ cookie }, { cookie, 'x-xsrf-token': 'wrong' }]) {
      const res = await panel.app.inject({ method: 'POST', url, headers, payload });
      expect(res.statusCode).toBe(419);
      expect(res.json().errors[0]).toMatchObject({ code: 'HttpException', status: '419' });
    }
    expect(fs.existsSync(path.join(panel.daemon.volumePath(server.uuid), 'made-by-csrf'))).toBe(false);
    const ok = await panel.app.inject({ method: 'POST', url, headers: { cookie, 'x-xsrf-token': token ?? '' }, payload });
    expect(ok.statusCode).toBe(204);
    expect(fs.existsSync(path.join(panel.daemon.volumePath(server.uuid), 'made-by-csrf'))).toBe(true);
  });

  // attacks T-CSRF-2, T-SESS-3
  it('needs no CSRF header from a bearer API key, which never gets a session cookie', async ({ panel }) => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    const res = await panel.app.inject({
      method: 'POST',
      url: `/api/client/servers/${server.uuid}/files/create-folder`,
      headers: await panel.bearerHeaders(owner),
      payload: { root: '/', name: 'by-api' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 401 before 404 for a signed-out caller on an unknown server', async ({ panel }) => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/servers/deadbeef' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('AuthenticationException');
  });
});

describe('app with a built SPA', () => {
  it('serves index.html for page URLs and error documents for API URLs', async ({ panel, tempDir: spaDir }) => {
    fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>Aerie</title>');
    const app = await buildApp({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock, spaDir });
    try {
      const page = await app.inject({ method: 'GET', url: '/server/abcd1234/files/world' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<title>Aerie</title>');
      const apiMiss = await app.inject({ method: 'GET', url: '/api/client/unknown-route' });
      expect(apiMiss.statusCode).toBe(404);
      expect(apiMiss.json().errors[0].code).toBe('NotFoundHttpException');
    } finally {
      await app.close();
    }
  });

  it('serves the index.html a rebuild left, and the last one while a build has it missing', async ({ panel, tempDir: spaDir }) => {
    const index = path.join(spaDir, 'index.html');
    fs.writeFileSync(index, '<script src="/assets/index-old.js"></script>');
    const app = await buildApp({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock, spaDir });
    try {
      const page = async () => (await app.inject({ method: 'GET', url: '/account' })).body;
      expect(await page()).toContain('index-old.js');
      fs.writeFileSync(index, '<script src="/assets/index-new.js"></script>');
      expect(await page()).toContain('index-new.js');
      fs.rmSync(index);
      expect(await page()).toContain('index-new.js');
    } finally {
      await app.close();
    }
  });
});
