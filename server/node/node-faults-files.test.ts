import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { servers } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import { test } from '../test/fixtures';
import { eventually } from '../test/game-support';
import type { TestPanel } from '../test/harness';
import { startNode, type RunningNode } from '../test/node-support';

/*
 * Aerie's node killed (SIGKILL) while a file streams to it (issue 24 §5): through the panel
 * (`POST /files/write`, the Wings client) and straight to the node (the signed upload URL). The
 * panel answers an error document, and once the node is back the file being replaced is whole
 * (old content), no part of the upload is left in the volume, and the server works.
 */

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

const OLD = 'spawn at 0,64,0';
const MB = 1024 * 1024;

async function installedOnNode(panel: TestPanel, remote: RunningNode, owner: UserRow): Promise<ServerRow> {
  const server = await remote.server(owner);
  await panel.daemon.servers.delete(server.uuid);
  expect((await remote.call('POST', '/api/servers', { uuid: server.uuid, start_on_completion: false })).status).toBe(202);
  await eventually(async () => (await servers.findById(panel.db, server.id))?.status === null, 60_000);
  fs.writeFileSync(path.join(remote.dataDir, 'volumes', server.uuid, 'level.dat'), OLD);
  return server;
}

/** Every name under `dir` (recursively) the daemon uses for its own temporary files. */
function leftovers(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => path.basename(n).startsWith('.aerie-'));
}

/** A slow body of `total` MiB: the node dies while it streams. */
function slowBody(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      sent += 1;
      if (sent > total) return void this.push(null);
      setTimeout(() => this.push(Buffer.alloc(MB, sent)), 30);
    },
  });
}

/** True once a non-empty temporary file sits in the volume or the receive area beside it: the node is writing the upload. */
function writing(volume: string): boolean {
  return [volume, path.join(path.dirname(volume), '.aerie-tmp')].some((dir) =>
    leftovers(dir).some((n) => fs.statSync(path.join(dir, n)).isFile() && fs.statSync(path.join(dir, n)).size > 0),
  );
}

async function worksAfterRestart(panel: TestPanel, server: ServerRow, headers: Record<string, string>, volume: string) {
  const base = `/api/client/servers/${server.uuid}/files`;
  const read = await panel.app.inject({ url: `${base}/contents?file=%2Flevel.dat`, headers });
  expect(read.statusCode, read.body).toBe(200);
  expect(read.body).toBe(OLD);
  await eventually(() => leftovers(volume).length === 0);
  const list = await panel.app.inject({ url: `${base}/list?directory=%2F`, headers });
  expect(list.statusCode, list.body).toBe(200);
  const text = { ...headers, 'content-type': 'text/plain' };
  const write = await panel.app.inject({ method: 'POST', url: `${base}/write?file=%2Flevel.dat`, headers: text, payload: 'spawn at 1,64,1' });
  expect(write.statusCode, write.body).toBe(204);
  expect(fs.readFileSync(path.join(volume, 'level.dat'), 'utf8')).toBe('spawn at 1,64,1');
  const power = await panel.app.inject({ method: 'POST', url: `/api/client/servers/${server.uuid}/power`, headers, payload: { signal: 'start' } });
  expect(power.statusCode, power.body).toBe(204);
}

it(
  'answers an error document when the node dies under a write through the panel, and the file stays whole',
  { timeout: 120_000 },
  async ({ panel, remote }) => {
    const owner = await panel.user();
    const server = await installedOnNode(panel, remote, owner);
    const headers = await panel.bearerHeaders(owner);
    const volume = path.join(remote.dataDir, 'volumes', server.uuid);
    const url = `/api/client/servers/${server.uuid}/files/write?file=%2Flevel.dat`;
    // Its length declared, so the panel streams it to the node as it comes (one of unknown length is spooled first).
    const streaming = { ...headers, 'content-type': 'text/plain', 'content-length': String(60 * MB) };
    const answer = panel.app.inject({ method: 'POST', url, headers: streaming, payload: slowBody(60) });
    await eventually(() => writing(volume), 30_000);
    await remote.kill();
    const res = await answer;
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(res.body)).toEqual({
      errors: [expect.objectContaining({ status: String(res.statusCode), detail: expect.stringMatching(/\S/) })],
    });
    expect(fs.readFileSync(path.join(volume, 'level.dat'), 'utf8')).toBe(OLD);

    await remote.restart();
    await worksAfterRestart(panel, server, headers, volume);
  },
);

it('leaves no part of an upload to the signed URL when the node dies under it', { timeout: 120_000 }, async ({ panel, remote }) => {
  const owner = await panel.user();
  const server = await installedOnNode(panel, remote, owner);
  const headers = await panel.bearerHeaders(owner);
  const volume = path.join(remote.dataDir, 'volumes', server.uuid);
  // The node checks the signed URL against the real time; the test panel's clock stands still in March.
  panel.clock.set(new Date());
  const link = await panel.app.inject({ url: `/api/client/servers/${server.uuid}/files/upload`, headers });
  expect(link.statusCode, link.body).toBe(200);
  const target = new URL((JSON.parse(link.body) as { attributes: { url: string } }).attributes.url);
  target.searchParams.set('directory', '/');
  const boundary = 'AerieFaults';
  const request = http.request(target, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  const ended = new Promise<string>((resolve) => {
    request.once('response', (r) => resolve(String(r.statusCode)));
    request.once('error', (e) => resolve(e.message));
  });
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="level.dat"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const body = slowBody(60);
  body.pipe(request, { end: false });
  // Should the node never write, how the request ended says why.
  await eventually(() => writing(volume), 30_000).catch(async (error: unknown) => {
    throw new Error(`${String(error)}; request: ${await Promise.race([ended, Promise.resolve('pending')])}; node: ${remote.output().slice(-3000)}`);
  });
  await remote.kill();
  // The connection breaks under the client; nothing of it is the new level.dat.
  expect(await ended).not.toBe('200');
  body.destroy();
  expect(fs.readFileSync(path.join(volume, 'level.dat'), 'utf8')).toBe(OLD);

  await remote.restart();
  await worksAfterRestart(panel, server, headers, volume);
});
