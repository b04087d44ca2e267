import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { settled } from '../test/backups-support';
import { expectRefused, nodePath } from '../test/files-support';
import { test } from '../test/fixtures';
import { installedServer, signedUrl } from '../test/node-client-support';
import { startNode } from '../test/node-support';
import { connect, ops } from '../test/sftp-support';

/*
 * Issue 24 §5: the access and hostile-path tests the panel's own node passes (files-access,
 * files-attacks, files-transfer, backups-attacks), for servers on Aerie's standalone node, through
 * the client API and the links it signs, followed to the node as a browser does.
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

const HOST_SECRET = 'HOST-SECRET-OUTSIDE-EVERY-VOLUME';

it(
  'refuses strangers, subusers without the permission, hostile paths and links out of the volume',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const a = await installedServer(panel, remote);
    const b = await installedServer(panel, remote);
    fs.writeFileSync(path.join(b.volume, 'canary.txt'), 'CANARY-S2');
    const hostFile = path.join(remote.dataDir, 'host-secret.txt');
    fs.writeFileSync(hostFile, HOST_SECRET);
    const refused = (res: { statusCode: number; body: string }, status: number | number[] = 404) => {
      expectRefused(res, status);
      expect(res.body).not.toContain(HOST_SECRET);
    };
    // The panel signs a download link without looking (as the reference panel does); the node refuses it.
    const download = async (file: string) => {
      const link = await a.client('GET', `/files/download?file=${encodeURIComponent(file)}`);
      expect(link.statusCode, link.body).toBe(200);
      const res = await fetch(signedUrl(link.body));
      refused({ statusCode: res.status, body: await res.text() }, [400, 403, 404]);
    };

    // A stranger (B's owner) on A's server: 404 on every verb, as if it did not exist.
    for (const route of [
      '/files/list?directory=%2F',
      '/files/contents?file=%2Fdemo-game.mjs',
      '/files/download?file=%2Fdemo-game.mjs',
      '/files/upload',
      '/backups',
    ]) {
      refused(await a.client('GET', route, undefined, b.headers));
    }
    refused(await a.client('POST', '/files/write?file=%2Fx.txt', 'mine', b.headers));

    // A subuser of A with the console only: 403 for reading, writing, downloading.
    const helper = await panel.user();
    await panel.subuser(a.server, helper, ['control.console']);
    const helperHeaders = await panel.bearerHeaders(helper);
    for (const route of [
      '/files/list?directory=%2F',
      '/files/contents?file=%2Fdemo-game.mjs',
      '/files/download?file=%2Fdemo-game.mjs',
      '/files/upload',
    ]) {
      refused(await a.client('GET', route, undefined, helperHeaders), 403);
    }
    refused(await a.client('POST', '/files/write?file=%2Fx.txt', 'mine', helperHeaders), 403);

    // `../`, absolute and sibling paths stay inside A's volume.
    for (const file of [
      `../${b.server.uuid}/canary.txt`,
      '../host-secret.txt',
      '../../host-secret.txt',
      '/../../../../etc/passwd',
      `/../${b.server.uuid}/canary.txt`,
    ]) {
      refused(await a.client('GET', `/files/contents?file=${encodeURIComponent(file)}`));
      await download(file);
    }
    refused(await a.client('GET', `/files/list?directory=${encodeURIComponent(`../${b.server.uuid}`)}`));
    // An absolute path is the volume's: /etc/passwd is a file of A, not the host's.
    expect((await a.client('POST', '/files/write?file=%2Fetc%2Fpasswd', 'inside')).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(a.volume, 'etc', 'passwd'), 'utf8')).toBe('inside');
    expect(fs.readFileSync('/etc/passwd', 'utf8')).not.toBe('inside');

    // Links a program in the volume could make: read, listed, downloaded or written through, never.
    fs.symlinkSync(hostFile, path.join(a.volume, 'LH'));
    fs.symlinkSync(path.join(b.volume, 'canary.txt'), path.join(a.volume, 'L'));
    fs.symlinkSync(b.volume, path.join(a.volume, 'DL'));
    fs.symlinkSync('/etc', path.join(a.volume, 'ETC'));
    for (const file of ['LH', 'L', 'DL/canary.txt', 'ETC/passwd']) {
      refused(await a.client('GET', `/files/contents?file=${encodeURIComponent(file)}`));
      await download(file);
      refused(await a.client('POST', `/files/write?file=${encodeURIComponent(file)}`, 'PWNED'));
    }
    for (const directory of ['DL', 'ETC']) refused(await a.client('GET', `/files/list?directory=${directory}`));
    expect(fs.readFileSync(hostFile, 'utf8')).toBe(HOST_SECRET);
    expect(fs.readFileSync(path.join(b.volume, 'canary.txt'), 'utf8')).toBe('CANARY-S2');

    // The node's links keep to one server even when the node is asked for the path directly.
    const form = new FormData();
    form.append('files', new Blob(['PWNED']), 'x.txt');
    const upload = signedUrl((await a.client('GET', '/files/upload')).body);
    const escaped = await fetch(`${upload}&directory=${encodeURIComponent(`../${b.server.uuid}`)}`, { method: 'POST', body: form });
    expect(escaped.status).toBeGreaterThanOrEqual(400);
    expect(fs.existsSync(path.join(b.volume, 'x.txt'))).toBe(false);
  },
);

it('keeps each signed link to its server, its node, its kind and one use', { timeout: 120_000 }, async ({ panel, remote }) => {
  const a = await installedServer(panel, remote);
  const local = await panel.server(a.owner);
  const upload = () => {
    const form = new FormData();
    form.append('files', new Blob(['uploaded']), 'up.txt');
    return form;
  };

  // Used once: the second use of an upload or download link is refused.
  const uploadUrl = signedUrl((await a.client('GET', '/files/upload')).body);
  expect((await fetch(`${uploadUrl}&directory=%2F`, { method: 'POST', body: upload() })).status).toBeLessThan(300);
  fs.rmSync(path.join(a.volume, 'up.txt'));
  expect((await fetch(`${uploadUrl}&directory=%2F`, { method: 'POST', body: upload() })).status).toBe(403);
  expect(fs.existsSync(path.join(a.volume, 'up.txt'))).toBe(false);
  const downloadUrl = signedUrl((await a.client('GET', '/files/download?file=%2Fdemo-game.mjs')).body);
  expect((await fetch(downloadUrl)).status).toBe(200);
  expect((await fetch(downloadUrl)).status).toBe(403);

  // Expired: a link signed 16 minutes ago (15 minutes is its life) no longer uploads.
  const headers = a.headers;
  panel.clock.set(new Date(Date.now() - 16 * 60_000));
  const stale = await panel.app.inject({ url: `/api/client/servers/${a.server.uuid}/files/upload`, headers });
  expect((await fetch(`${signedUrl(stale.body)}&directory=%2F`, { method: 'POST', body: upload() })).status).toBe(403);
  expect(fs.existsSync(path.join(a.volume, 'up.txt'))).toBe(false);
  panel.clock.set(new Date());

  // Another server's, on another node: a link of the panel's own node is nothing to Aerie's node, and back.
  fs.writeFileSync(path.join(panel.daemon.volumePath(local.uuid), 'local.txt'), 'LOCAL');
  const localLink = await panel.app.inject({ url: `/api/client/servers/${local.uuid}/files/download?file=%2Flocal.txt`, headers });
  const localUpload = await panel.app.inject({ url: `/api/client/servers/${local.uuid}/files/upload`, headers });
  expect((await fetch(`${remote.url}${nodePath(localLink.json())}`)).status).toBe(403);
  expect((await fetch(`${remote.url}${nodePath(localUpload.json())}&directory=%2F`, { method: 'POST', body: upload() })).status).toBe(403);
  const remoteLink = signedUrl((await a.client('GET', '/files/download?file=%2Fdemo-game.mjs')).body);
  const remotePath = new URL(remoteLink);
  expect((await panel.app.inject({ url: `${remotePath.pathname}${remotePath.search}` })).statusCode).toBe(403);

  // Another kind: a backup link at the file endpoint, a file link at the backup endpoint.
  const created = await a.client('POST', '/backups', { name: 'links' });
  const uuid = (created.json() as { attributes: { uuid: string } }).attributes.uuid;
  await settled(panel, uuid, 60_000);
  const backupUrl = new URL(signedUrl((await a.client('GET', `/backups/${uuid}/download`)).body));
  const fileUrl = new URL(signedUrl((await a.client('GET', '/files/download?file=%2Fdemo-game.mjs')).body));
  expect((await fetch(`${remote.url}/download/file${backupUrl.search}`)).status).toBe(403);
  expect((await fetch(`${remote.url}/download/backup${fileUrl.search}`)).status).toBe(403);
  // A stranger cannot have the backup's link at all.
  const stranger = await panel.bearerHeaders(await panel.user());
  expect((await a.client('GET', `/backups/${uuid}/download`, undefined, stranger)).statusCode).toBe(404);
});

it('keeps SFTP to the servers and permissions the panel grants, and inside the volume', { timeout: 120_000 }, async ({ panel, remote }) => {
  const a = await installedServer(panel, remote);
  const b = await installedServer(panel, remote);
  const hostFile = path.join(remote.dataDir, 'host-secret.txt');
  fs.writeFileSync(hostFile, HOST_SECRET);
  fs.symlinkSync(hostFile, path.join(a.volume, 'LH'));
  const password = 'correct horse battery';
  // B's owner on A's server, and a subuser of A without file.sftp: refused at sign-in.
  await expect(connect(remote.sftpPort, { username: `${b.owner.username}.${a.server.uuid_short}`, password })).rejects.toThrow();
  const helper = await panel.user();
  await panel.subuser(a.server, helper, ['file.read']);
  await expect(connect(remote.sftpPort, { username: `${helper.username}.${a.server.uuid_short}`, password })).rejects.toThrow();

  const { sftp, client } = await connect(remote.sftpPort, { username: `${a.owner.username}.${a.server.uuid_short}`, password });
  try {
    const fs2 = ops(sftp);
    await expect(fs2.list(`/../${b.server.uuid}`)).rejects.toThrow();
    await expect(fs2.read(`/../${b.server.uuid}/demo-game.mjs`)).rejects.toThrow();
    await expect(fs2.read('/LH')).rejects.toThrow();
    await expect(fs2.write('/LH', 'PWNED')).rejects.toThrow();
    await expect(fs2.symlink('/etc/passwd', '/passwd')).rejects.toThrow();
    expect(fs.readFileSync(hostFile, 'utf8')).toBe(HOST_SECRET);
  } finally {
    client.end();
  }
});
