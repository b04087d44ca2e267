import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { setServerStatus } from '../services/servers';
import { test } from '../test/fixtures';

/*
 * Access on every file endpoint: 401 signed out, 404 for a stranger (never 403), 409 for a
 * suspended server, 403 for a subuser lacking the one permission the endpoint needs (the table
 * below; decompressing needs file.create, not file.archive), success for a subuser holding exactly
 * that permission. Refusals change nothing on disk.
 */

const boundary = 'aerieBoundary';
const uploadBody = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="up.txt"\r\nContent-Type: text/plain\r\n\r\nUP\r\n--${boundary}--\r\n`;

type Case = {
  name: string;
  permission: string;
  method: 'GET' | 'POST' | 'PUT';
  endpoint: string;
  query?: Record<string, string>;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  ok: number;
};
const cases: Case[] = [
  { name: 'list', permission: 'file.read', method: 'GET', endpoint: 'list', query: { directory: '/' }, ok: 200 },
  { name: 'contents', permission: 'file.read-content', method: 'GET', endpoint: 'contents', query: { file: 'a.txt' }, ok: 200 },
  { name: 'download', permission: 'file.read-content', method: 'GET', endpoint: 'download', query: { file: 'a.txt' }, ok: 200 },
  { name: 'write', permission: 'file.create', method: 'POST', endpoint: 'write', query: { file: 'new.txt' }, raw: 'N', ok: 204 },
  { name: 'copy', permission: 'file.create', method: 'POST', endpoint: 'copy', body: { location: 'a.txt' }, ok: 204 },
  { name: 'delete', permission: 'file.delete', method: 'POST', endpoint: 'delete', body: { root: '/', files: ['a.txt'] }, ok: 204 },
  { name: 'create-folder', permission: 'file.create', method: 'POST', endpoint: 'create-folder', body: { root: '/', name: 'folder' }, ok: 204 },
  { name: 'compress', permission: 'file.archive', method: 'POST', endpoint: 'compress', body: { root: '/', files: ['dir'] }, ok: 200 },
  { name: 'decompress', permission: 'file.create', method: 'POST', endpoint: 'decompress', body: { root: '/', file: 'archive.tar.gz' }, ok: 204 },
  {
    name: 'rename',
    permission: 'file.update',
    method: 'PUT',
    endpoint: 'rename',
    body: { root: '/', files: [{ from: 'a.txt', to: 'z.txt' }] },
    ok: 204,
  },
  {
    name: 'upload',
    permission: 'file.create',
    method: 'POST',
    endpoint: 'upload',
    query: { directory: '/' },
    raw: uploadBody,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    ok: 204,
  },
];

const it = test
  /** Turns `dir` into `archive.tar.gz`, for the decompress case. */
  .extend('prepareArchive', async ({ files: f }) => async () => {
    const res = await f.call('POST', 'compress', { body: { root: '/', files: ['dir'] } });
    fs.renameSync(path.join(f.v1, res.json().attributes.name), path.join(f.v1, 'archive.tar.gz'));
    fs.rmSync(path.join(f.v1, 'dir'), { recursive: true });
  })
  /** Sends a case's request with the given credentials. */
  .extend('send', async ({ files: f }) => async (c: Case, headers: Record<string, string>, server = f.s1.uuid) => {
    return f.call(c.method, c.endpoint, { query: c.query, body: c.body, raw: c.raw, headers: { ...headers, ...(c.headers ?? {}) } }, server);
  });

it.beforeEach(({ files: f }) => {
  f.put('a.txt', 'A');
  f.put('dir/b.txt', 'B');
});

describe.each(cases)('files/$name', (c) => {
  it(`needs ${c.permission}: 403 without it, ${c.ok} with only it`, async ({ files: f, prepareArchive, send }) => {
    if (c.name === 'decompress') await prepareArchive();
    const all = ['file.create', 'file.read', 'file.read-content', 'file.update', 'file.delete', 'file.archive'];
    const lacking = await f.panel.user();
    await f.panel.subuser(
      f.s1,
      lacking,
      all.filter((p) => p !== c.permission),
    );
    const before = f.snapshot();
    const listing = fs.readdirSync(f.v1).sort();
    const denied = await send(c, await f.panel.bearerHeaders(lacking));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errors[0].status).toBe('403');
    expect(fs.readdirSync(f.v1).sort()).toEqual(listing);

    const holder = await f.panel.user();
    await f.panel.subuser(f.s1, holder, [c.permission]);
    const allowed = await send(c, await f.panel.bearerHeaders(holder));
    expect(allowed.statusCode, allowed.body).toBe(c.ok);
    expect(f.snapshot()).toEqual(before);
  });

  it('answers 404 to a stranger, 401 signed out, 409 when suspended', async ({ files: f, send }) => {
    const stranger = await f.panel.user();
    const asStranger = await send(c, await f.panel.bearerHeaders(stranger));
    expect(asStranger.statusCode).toBe(404);
    // The other owner cannot reach S1 through its own uuid either.
    expect((await send(c, await f.panel.bearerHeaders(f.otherOwner))).statusCode).toBe(404);
    // An upload starts with the panel signing a link: GET files/upload.
    const panelMethod = c.endpoint === 'upload' ? 'GET' : c.method;
    const signedOut = await f.panel.app.inject({ method: panelMethod, url: `/api/client/servers/${f.s1.uuid}/files/${c.endpoint}` });
    expect(signedOut.statusCode).toBe(401);
    await setServerStatus(f.panel.db, f.s1.uuid, 'suspended', f.panel.clock.now());
    const suspended = await send(c, f.ownerHeaders);
    expect(suspended.statusCode).toBe(409);
    expect(f.read('a.txt')).toBe('A');
    const events = await f.panel.db.selectFrom('activity_logs').select('event').execute();
    expect(events).toEqual([]);
  });
});
