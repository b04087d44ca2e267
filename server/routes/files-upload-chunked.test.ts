import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, vi } from 'vitest';
import { LocalDaemon } from '../daemon/local';
import { nodePath, type FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * Resumable uploads in chunks on the signed upload link (issue 22 #5): Aerie's extension of the
 * Wings upload, advertised by the link's `chunk_bytes` (`daemon/local/upload-chunks.ts`).
 */

const CHUNK = 256 * 1024;
const MIB = 1024 * 1024;

/** A panel whose node takes at most CHUNK bytes per request, so chunks are small here. */
const smallChunks = { maxUploadBytes: CHUNK };

/** A signed upload link (path and query) for `server`, asked for by `headers`' user. */
async function linkFor(f: FileFixture, server = f.s1.uuid, headers = f.ownerHeaders): Promise<string> {
  const res = await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${server}/files/upload`, headers });
  expect(res.statusCode).toBe(200);
  return nodePath(res.json());
}

function start(f: FileFixture, link: string, name: string, size: number, directory = '/') {
  return f.panel.app.inject({ method: 'POST', url: `${link}&directory=${encodeURIComponent(directory)}`, payload: { name, size } });
}

/** Starts an upload and returns its id. */
async function started(f: FileFixture, link: string, name: string, size: number, directory = '/'): Promise<string> {
  const res = await start(f, link, name, size, directory);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { upload_id: string }).upload_id;
}

/** Sends `data` as the bytes from `at` of a `total`-byte upload (`range` overrides the Content-Range). */
function chunk(f: FileFixture, link: string, id: string, at: number, data: Buffer, total: number, range?: string) {
  return f.panel.app.inject({
    method: 'PUT',
    url: `${link}&upload_id=${id}`,
    payload: data,
    headers: { 'content-type': 'application/octet-stream', 'content-range': range ?? `bytes ${at}-${at + data.length - 1}/${total}` },
  });
}

function offsetOf(f: FileFixture, link: string, id: string, total: number) {
  return f.panel.app.inject({ method: 'PUT', url: `${link}&upload_id=${id}`, headers: { 'content-range': `bytes */${total}` } });
}

/** Sends all of `data` from `from` in CHUNK pieces; returns the last reply. */
async function sendAll(f: FileFixture, link: string, id: string, data: Buffer, from = 0) {
  let last;
  for (let at = from; at < data.length; at += CHUNK) {
    last = await chunk(f, link, id, at, data.subarray(at, at + CHUNK), data.length);
    expect(last.statusCode, last.body).toBe(200);
  }
  return last;
}

const receiveArea = (f: FileFixture): string[] => fs.readdirSync(path.join(f.panel.dataDir, 'volumes', '.aerie-tmp'));
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

async function setDiskMiB(f: FileFixture, mib: number): Promise<void> {
  await f.panel.db.updateTable('servers').set({ disk: mib }).where('id', '=', f.s1.id).execute();
  await f.panel.reconfigure(f.s1);
}

describe('chunked uploads', () => {
  // Fails on the old code: the link said nothing of chunks, so the SPA could only send one body.
  it('are advertised with the upload link of the local node', async ({ files: f }) => {
    const res = await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/files/upload`, headers: f.ownerHeaders });
    expect(res.json().attributes).toMatchObject({ max_file_bytes: 100 * MIB, chunk_bytes: 8 * MIB });
  });

  it('store a file bigger than one request may carry, unseen in the volume until the last chunk, and log it once', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    f.put('worlds/.keep', '');
    const data = randomBytes(CHUNK * 3 + 1234);
    const link = await linkFor(f);
    const id = await started(f, link, 'world.zip', data.length, '/worlds');
    const first = await chunk(f, link, id, 0, data.subarray(0, CHUNK), data.length);
    expect(first.json()).toEqual({ offset: CHUNK, complete: false });
    expect(fs.readdirSync(path.join(f.v1, 'worlds'))).toEqual(['.keep']);
    expect(receiveArea(f)).toHaveLength(1);
    const last = await sendAll(f, link, id, data, CHUNK);
    expect(last?.json()).toEqual({ offset: data.length, complete: true });
    expect(sha(fs.readFileSync(path.join(f.v1, 'worlds/world.zip')))).toBe(sha(data));
    expect(receiveArea(f)).toEqual([]);
    await vi.waitFor(async () =>
      expect(await f.events()).toEqual([{ event: 'server:file.uploaded', properties: { directory: '/worlds', file: 'world.zip' } }]),
    );
  });

  it('refuse a chunk out of order and a chunk over the chunk size, and resume from the confirmed offset after a cut chunk', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const data = randomBytes(CHUNK * 2);
    const link = await linkFor(f);
    const id = await started(f, link, 'big.bin', data.length);
    const ahead = await chunk(f, link, id, CHUNK, data.subarray(CHUNK), data.length);
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().errors[0].detail).toBe(`This upload goes on at byte 0, not ${CHUNK}.`);
    expect((await chunk(f, link, id, 0, randomBytes(CHUNK + 1), data.length)).statusCode).toBe(413);
    expect((await chunk(f, link, id, 0, data.subarray(0, 10), data.length + 1)).statusCode).toBe(400);
    // The network cut this one after 1000 bytes: what arrived is kept.
    const cut = await chunk(f, link, id, 0, data.subarray(0, 1000), data.length, `bytes 0-${CHUNK - 1}/${data.length}`);
    expect(cut.json()).toEqual({ offset: 1000, complete: false });
    expect((await offsetOf(f, link, id, data.length)).json()).toEqual({ offset: 1000, complete: false });
    expect((await chunk(f, link, id, 0, data.subarray(0, CHUNK), data.length)).statusCode).toBe(409);
    await sendAll(f, link, id, data.subarray(0, CHUNK * 2), 1000);
    expect(sha(fs.readFileSync(path.join(f.v1, 'big.bin')))).toBe(sha(data));
  });

  it('stop at the disk limit mid-way, keeping nothing, and refuse a file over the whole limit before a chunk', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    await setDiskMiB(f, 1);
    const link = await linkFor(f);
    const tooBig = await start(f, link, 'huge.bin', 2 * MIB);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().errors[0].code).toBe('InsufficientDiskSpaceException');
    f.put('filler.bin', Buffer.alloc(MIB / 2));
    const data = randomBytes(MIB - 64 * 1024);
    const id = await started(f, await linkFor(f), 'world.bin', data.length);
    const link2 = await linkFor(f);
    expect(link2).not.toBe(link);
    const replies = [];
    for (let at = 0; at < data.length; at += CHUNK)
      replies.push((await chunk(f, link2, id, at, data.subarray(at, at + CHUNK), data.length)).statusCode);
    // The other link did not start this upload: every chunk is refused, nothing written.
    expect(replies.every((s) => s === 404)).toBe(true);
    const link3 = await linkFor(f);
    const id3 = await started(f, link3, 'world.bin', data.length);
    expect((await chunk(f, link3, id3, 0, data.subarray(0, CHUNK), data.length)).statusCode).toBe(200);
    const over = await chunk(f, link3, id3, CHUNK, data.subarray(CHUNK, 2 * CHUNK), data.length);
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json().errors[0].code).toBe('InsufficientDiskSpaceException');
    expect(f.exists('world.bin')).toBe(false);
    expect((await offsetOf(f, link3, id3, data.length)).statusCode).toBe(404);
    await vi.waitFor(() => expect(receiveArea(f).length).toBeLessThanOrEqual(1));
  });

  it("refuse a chunk sent with another server's link, a forged link or none, and let no link write twice", async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const link = await linkFor(f);
    const id = await started(f, link, 'a.bin', 10);
    // Another server's owner, with a genuine link of their own server.
    const theirs = await linkFor(f, f.s2.uuid, await f.panel.bearerHeaders(f.otherOwner));
    const foreign = await chunk(f, theirs, id, 0, Buffer.from('0123456789'), 10);
    expect(foreign.statusCode).toBe(404);
    const token = new URL(`http://x${link}`).searchParams.get('token') ?? '';
    // One signature character flipped well inside it (the last one carries bits a decoder may ignore).
    const at = token.length - 10;
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect((await chunk(f, `/upload/file?token=${forged}`, id, 0, Buffer.from('0123456789'), 10)).statusCode).toBe(403);
    expect((await chunk(f, '/upload/file?x=1', id, 0, Buffer.from('0123456789'), 10)).statusCode).toBe(403);
    // The link that started it is spent: no second upload, no multipart body.
    expect((await start(f, link, 'b.bin', 10)).statusCode).toBe(403);
    expect(f.exists('a.bin')).toBe(false);
    expect((await chunk(f, link, id, 0, Buffer.from('0123456789'), 10)).json()).toEqual({ offset: 10, complete: true });
    expect(f.read('a.bin')).toBe('0123456789');
    expect(fs.readFileSync(path.join(f.v2, 'canary.txt'), 'utf8')).toBe('CANARY-S2');
  });

  it('refuse hostile names and folders as a multipart upload does, and never write through a link', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const before = f.snapshot();
    for (const name of ['..', '.', '.aerie-tmp', 'a\0b', '']) expect((await start(f, await linkFor(f), name, 5)).statusCode, name).toBe(400);
    for (const dir of ['/../..', '/missing', '/../../host']) expect((await start(f, await linkFor(f), 'x.txt', 5, dir)).statusCode, dir).toBe(404);
    f.link('out', f.hostDir);
    expect((await start(f, await linkFor(f), 'x.txt', 5, '/out')).statusCode).toBe(404);
    // A name with a path keeps only its base name, as multipart uploads do.
    const link = await linkFor(f);
    const id = await started(f, link, '../../host/mine.txt', 5);
    expect((await chunk(f, link, id, 0, Buffer.from('owned'), 5)).statusCode).toBe(200);
    expect(f.read('mine.txt')).toBe('owned');
    // A link in the way is never written through: the upload is refused and the link stays.
    f.link('canary.txt', f.hostCanary);
    const link2 = await linkFor(f);
    const id2 = await started(f, link2, 'canary.txt', 5);
    expect((await chunk(f, link2, id2, 0, Buffer.from('owned'), 5)).statusCode).toBe(404);
    expect(fs.lstatSync(path.join(f.v1, 'canary.txt')).isSymbolicLink()).toBe(true);
    expect(f.snapshot()).toEqual(before);
    expect(receiveArea(f)).toEqual([]);
  });

  it('go on past the link’s 15 minutes while they progress; an idle one is dropped with its bytes', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const data = randomBytes(CHUNK * 3);
    const link = await linkFor(f);
    const id = await started(f, link, 'slow.bin', data.length);
    for (let at = 0; at < CHUNK * 2; at += CHUNK) {
      f.panel.clock.advance(10 * 60_000);
      expect((await chunk(f, link, id, at, data.subarray(at, at + CHUNK), data.length)).statusCode).toBe(200);
    }
    const idle = await linkFor(f);
    const abandoned = await started(f, idle, 'gone.bin', data.length);
    expect((await chunk(f, idle, abandoned, 0, data.subarray(0, CHUNK), data.length)).statusCode).toBe(200);
    expect(receiveArea(f)).toHaveLength(2);
    f.panel.clock.advance(15 * 60_000 + 1000);
    await f.panel.daemon.chunkedUploads.sweep();
    expect(receiveArea(f)).toEqual([]);
    // Gone, and its link with it (an unknown upload's link is checked as of now: these have expired).
    expect([403, 404]).toContain((await offsetOf(f, idle, abandoned, data.length)).statusCode);
    expect([403, 404]).toContain((await offsetOf(f, link, id, data.length)).statusCode);
    expect(f.exists('gone.bin') || f.exists('slow.bin')).toBe(false);
  });

  it('stop at a revocation of the user’s links on the server', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const sub = await f.panel.user();
    await f.panel.subuser(f.s1, sub, ['file.create', 'file.read']);
    const link = await linkFor(f, f.s1.uuid, await f.panel.bearerHeaders(sub));
    const id = await started(f, link, 'a.bin', 10);
    f.panel.clock.advance(1000);
    const removed = await f.panel.app.inject({
      method: 'DELETE',
      url: `/api/client/servers/${f.s1.uuid}/users/${sub.uuid}`,
      headers: f.ownerHeaders,
    });
    expect(removed.statusCode).toBe(204);
    expect((await chunk(f, link, id, 0, Buffer.from('0123456789'), 10)).statusCode).toBe(403);
    expect(f.exists('a.bin')).toBe(false);
  });

  it('are capped per server while in progress', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    for (let i = 0; i < 16; i += 1) await started(f, await linkFor(f), `a${i}.bin`, 10);
    const refused = await start(f, await linkFor(f), 'one-more.bin', 10);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].detail).toBe('This server already has 16 uploads in progress. Wait for one to finish.');
    // Another server's are its own.
    expect((await start(f, await linkFor(f, f.s2.uuid, await f.panel.bearerHeaders(f.otherOwner)), 'b.bin', 10)).statusCode).toBe(201);
  });

  it('leave nothing behind once the node restarts', async ({ makeFiles }) => {
    const f = await makeFiles(smallChunks);
    const link = await linkFor(f);
    const id = await started(f, link, 'a.bin', CHUNK * 2);
    expect((await chunk(f, link, id, 0, randomBytes(CHUNK), CHUNK * 2)).statusCode).toBe(200);
    expect(receiveArea(f)).toHaveLength(1);
    // The node process starting again on the same data dir.
    new LocalDaemon(f.panel.dataDir, { bwrap: null }).sweepLeftovers();
    await vi.waitFor(() => expect(receiveArea(f)).toEqual([]));
  });
});
