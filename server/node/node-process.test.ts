import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import { startNode } from '../test/node-support';

/*
 * Aerie's node as its own process (issue 24 §3), driven as the panel drives Wings: its token,
 * Wings' routes and bodies, and the panel's remote API behind it.
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

it('answers GET /api/system with its token, and refuses a missing or wrong one as Wings', { timeout: 120_000 }, async ({ remote }) => {
  const ok = await remote.call('GET', '/api/system');
  expect(ok.status).toBe(200);
  const system = (await ok.json()) as { version: unknown; os: unknown; cpu_count: unknown };
  expect(system).toMatchObject({ version: expect.stringMatching(/\S/), os: 'linux' });
  expect(Number.isInteger(system.cpu_count)).toBe(true);
  expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  const none = await remote.call('GET', '/api/system', undefined, null);
  expect(none.status).toBe(401);
  expect(none.headers.get('www-authenticate')).toBe('Bearer');
  const wrong = await remote.call('GET', '/api/system', undefined, 'x'.repeat(64));
  expect(wrong.status).toBe(403);
  expect(await wrong.json()).toEqual({ error: 'You are not authorized to access this endpoint.' });
  // The panel's token id.token pair is what the node presents to the panel, not what it accepts.
  expect((await remote.call('GET', '/api/system', undefined, `${remote.node.daemon_token_id}.x`)).status).toBe(403);
  // CORS for the panel's page (it PUTs upload chunks to the node), and for no other site.
  const preflight = (origin: string) =>
    fetch(`${remote.url}/upload/file`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
  const fromPanel = await preflight(remote.panelUrl);
  expect(fromPanel.status).toBe(204);
  expect(fromPanel.headers.get('access-control-allow-origin')).toBe(remote.panelUrl);
  expect(fromPanel.headers.get('access-control-allow-headers')).toContain('Content-Range');
  expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
});

it(
  'creates a server the panel gave it: fetches its configuration, installs, and the panel hears the install ended',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await remote.server(owner);
    const created = await remote.call('POST', '/api/servers', { uuid: server.uuid, start_on_completion: false });
    expect(created.status).toBe(202);
    await eventually(
      async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirst())?.status === null,
      60_000,
    );
    const details = await remote.call('GET', `/api/servers/${server.uuid}`);
    expect(details.status).toBe(200);
    const body = await details.json();
    expect(body).toMatchObject({ state: 'offline', is_suspended: false, configuration: { uuid: server.uuid }, utilization: { memory_bytes: 0 } });
    // The demo egg's install script placed the program in the volume.
    const listing = (await (await remote.call('GET', `/api/servers/${server.uuid}/files/list-directory?directory=/`)).json()) as { name: string }[];
    expect(listing.map((f) => f.name)).toContain('demo-game.mjs');
    // Unknown to the node: Wings' 404.
    const unknown = await remote.call('GET', '/api/servers/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe('The requested resource does not exist on this instance.');
  },
);

it(
  'refuses to create a server of another node: the panel answers its configuration only to its own node (404)',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const local = await panel.server(owner);
    const res = await remote.call('POST', '/api/servers', { uuid: local.uuid });
    expect(res.status).toBe(404);
    expect((await remote.call('GET', `/api/servers/${local.uuid}`)).status).toBe(404);
    expect((await remote.call('POST', '/api/servers', { uuid: 'not-a-uuid' })).status).toBe(422);
  },
);

it('writes, lists and reads files through the Wings routes, and refuses paths out of the volume', { timeout: 120_000 }, async ({ panel, remote }) => {
  const owner = await panel.user();
  const server = await remote.server(owner);
  expect((await remote.call('POST', '/api/servers', { uuid: server.uuid })).status).toBe(202);
  await eventually(
    async () => (await panel.db.selectFrom('servers').select('status').where('id', '=', server.id).executeTakeFirst())?.status === null,
    60_000,
  );
  const files = `/api/servers/${server.uuid}/files`;
  expect((await remote.call('POST', `${files}/write?file=${encodeURIComponent('/notes/hello.txt')}`, 'hello node')).status).toBe(204);
  const listed = await (await remote.call('GET', `${files}/list-directory?directory=%2Fnotes`)).json();
  expect(listed).toEqual([expect.objectContaining({ name: 'hello.txt', size: 10, file: true, directory: false, symlink: false, mode_bits: '644' })]);
  const read = await remote.call('GET', `${files}/contents?file=%2Fnotes%2Fhello.txt`);
  expect(read.status).toBe(200);
  expect(await read.text()).toBe('hello node');
  expect((await remote.call('POST', `${files}/create-directory`, { name: 'sub', path: '/notes' })).status).toBe(204);
  expect((await remote.call('PUT', `${files}/rename`, { root: '/notes', files: [{ from: 'hello.txt', to: 'sub/hi.txt' }] })).status).toBe(204);
  expect((await remote.call('PUT', `${files}/rename`, { root: '/', files: [] })).status).toBe(422);
  const compressed = await remote.call('POST', `${files}/compress`, { root: '/notes', files: ['sub'] });
  expect(compressed.status).toBe(200);
  expect(((await compressed.json()) as { name: string }).name).toMatch(/^archive-.*\.tar\.gz$/);

  // Hostile paths, as the local node answers them: a missing file, nothing read or written outside.
  const volume = path.join(remote.dataDir, 'volumes', server.uuid);
  fs.symlinkSync('/etc', path.join(volume, 'escape'));
  for (const file of ['../../../../etc/passwd', '/../../etc/hostname', 'escape/passwd']) {
    const res = await remote.call('GET', `${files}/contents?file=${encodeURIComponent(file)}`);
    expect(res.status, file).toBe(404);
  }
  expect((await remote.call('GET', `${files}/list-directory?directory=escape`)).status).toBe(404);
  const write = await remote.call('POST', `${files}/write?file=${encodeURIComponent('escape/aerie-node-test')}`, 'x');
  expect(write.status).toBe(404);
  expect(fs.existsSync('/etc/aerie-node-test')).toBe(false);
  expect(await write.json()).toEqual({ error: expect.stringMatching(/\S/), request_id: write.headers.get('x-request-id') });
});
