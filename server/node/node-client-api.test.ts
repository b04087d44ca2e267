import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { archiveMembers, restoreEnded, settled } from '../test/backups-support';
import { test } from '../test/fixtures';
import { installedServer, signedUrl } from '../test/node-client-support';
import { startNode } from '../test/node-support';

/*
 * Issue 24 §5: a server on Aerie's standalone node, driven only through the panel's client API and
 * the signed links it hands out (followed to the node itself, as the browser does): files, uploads
 * and downloads, backups and their restore.
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

it('lists, edits, uploads, downloads, moves and archives files on the node', { timeout: 120_000 }, async ({ panel, remote }) => {
  const { client, volume } = await installedServer(panel, remote);
  const list = await client('GET', '/files/list?directory=%2F');
  expect(list.statusCode, list.body).toBe(200);
  const names = (list.json() as { data: { attributes: { name: string } }[] }).data.map((f) => f.attributes.name);
  expect(names).toContain('demo-game.mjs');

  const write = await client('POST', '/files/write?file=%2Fnotes.txt', 'edited on the panel');
  expect(write.statusCode, write.body).toBe(204);
  expect((await client('GET', '/files/contents?file=%2Fnotes.txt')).body).toBe('edited on the panel');
  expect(fs.readFileSync(path.join(volume, 'notes.txt'), 'utf8')).toBe('edited on the panel');

  const link = await client('GET', '/files/upload');
  expect(link.statusCode, link.body).toBe(200);
  const uploadUrl = signedUrl(link.body);
  expect(new URL(uploadUrl).origin).toBe(remote.url);
  const form = new FormData();
  form.append('files', new Blob(['uploaded bytes']), 'up.txt');
  const uploaded = await fetch(`${uploadUrl}&directory=%2F`, { method: 'POST', body: form });
  expect(uploaded.status, await uploaded.clone().text()).toBeLessThan(300);
  expect(fs.readFileSync(path.join(volume, 'up.txt'), 'utf8')).toBe('uploaded bytes');

  const download = await client('GET', '/files/download?file=%2Fup.txt');
  expect(download.statusCode, download.body).toBe(200);
  const fetched = await fetch(signedUrl(download.body));
  expect(fetched.status).toBe(200);
  expect(await fetched.text()).toBe('uploaded bytes');

  expect((await client('PUT', '/files/rename', { root: '/', files: [{ from: 'up.txt', to: 'moved.txt' }] })).statusCode).toBe(204);
  expect((await client('POST', '/files/copy', { location: '/moved.txt' })).statusCode).toBe(204);
  const compress = await client('POST', '/files/compress', { root: '/', files: ['moved.txt', 'notes.txt'] });
  expect(compress.statusCode, compress.body).toBe(200);
  const archive = (compress.json() as { attributes: { name: string } }).attributes.name;
  expect((await client('POST', '/files/delete', { root: '/', files: ['moved.txt', 'notes.txt'] })).statusCode).toBe(204);
  expect(fs.existsSync(path.join(volume, 'notes.txt'))).toBe(false);
  const decompress = await client('POST', '/files/decompress', { root: '/', file: archive });
  expect(decompress.statusCode, decompress.body).toBe(204);
  expect(fs.readFileSync(path.join(volume, 'notes.txt'), 'utf8')).toBe('edited on the panel');
  expect(fs.readFileSync(path.join(volume, 'moved.txt'), 'utf8')).toBe('uploaded bytes');
  const after = (await client('GET', '/files/list?directory=%2F')).json() as { data: { attributes: { name: string } }[] };
  expect(after.data.map((f) => f.attributes.name)).toEqual(expect.arrayContaining(['moved.txt', 'notes.txt', archive]));
  expect(after.data.some((f) => f.attributes.name.startsWith('moved copy'))).toBe(true);
});

it('backs up, downloads the archive and restores it on the node', { timeout: 120_000 }, async ({ panel, remote }) => {
  const { client, volume, server } = await installedServer(panel, remote);
  expect((await client('POST', '/files/write?file=%2Fworld.txt', 'before the backup')).statusCode).toBe(204);
  const created = await client('POST', '/backups', { name: 'on the node' });
  expect(created.statusCode, created.body).toBe(200);
  const uuid = (created.json() as { attributes: { uuid: string } }).attributes.uuid;
  const backup = await settled(panel, uuid, 60_000);
  expect(backup.is_successful).toBe(1);
  expect(backup.checksum).toMatch(/^sha1:[0-9a-f]{40}$/);
  const shown = (await client('GET', `/backups/${uuid}`)).json() as { attributes: { completed_at: string | null; checksum: string | null } };
  expect(shown.attributes.completed_at).not.toBeNull();

  const link = await client('GET', `/backups/${uuid}/download`);
  expect(link.statusCode, link.body).toBe(200);
  const url = signedUrl(link.body);
  expect(new URL(url).origin).toBe(remote.url);
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const { contents } = await archiveMembers(Buffer.from(await res.arrayBuffer()));
  expect([...contents].find(([name]) => name.replace(/^\.?\//, '') === 'world.txt')?.[1]).toBe('before the backup');

  expect((await client('POST', '/files/write?file=%2Fworld.txt', 'after the backup')).statusCode).toBe(204);
  expect((await client('POST', '/files/write?file=%2Fstray.txt', 'made later')).statusCode).toBe(204);
  const restore = await client('POST', `/backups/${uuid}/restore`, { truncate: true });
  expect(restore.statusCode, restore.body).toBe(204);
  await restoreEnded(panel, server.id, 60_000);
  expect(fs.readFileSync(path.join(volume, 'world.txt'), 'utf8')).toBe('before the backup');
  expect(fs.existsSync(path.join(volume, 'stray.txt'))).toBe(false);
});
