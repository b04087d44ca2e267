import type { FastifyInstance } from 'fastify';
import { describe, expect, vi } from 'vitest';
import type { FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';
import { listen, multipartFile, RawConnection, requestHead } from '../test/raw-http';

/*
 * A request refused before its body was read leaves the connection usable: a small rest is drained
 * and the connection kept; a larger one gets `Connection: close` and a clean end (a FIN, never a
 * reset that could lose the answer). Checked on real sockets, where keep-alive lives.
 */

const KiB = 1024;

/** A multipart upload of `size` bytes of which only `sent` body bytes go out now. */
function startUpload(conn: RawConnection, url: string, size: number, sent: number): Promise<Buffer> {
  const { body, contentType } = multipartFile('big.bin', Buffer.alloc(size, 'x'));
  return conn.sendPart('POST', url, { 'content-type': contentType }, body, sent);
}

async function setDiskMiB(f: FileFixture, mib: number): Promise<void> {
  await f.panel.db.updateTable('servers').set({ disk: mib }).where('id', '=', f.s1.id).execute();
  await f.panel.reconfigure(f.s1);
}

/** The server let go of every socket once its client was done (no lingering past it). */
async function expectNoConnections(app: FastifyInstance): Promise<void> {
  await vi.waitFor(async () => {
    const count = await new Promise<number>((resolve, reject) => app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    expect(count).toBe(0);
  }, 2000);
}

const list = (f: FileFixture) => requestHead('GET', `/api/client/servers/${f.s1.uuid}/files/list?directory=%2F`, f.ownerHeaders);

describe('a request refused before its body was read', () => {
  it('drains a small rest and answers the next request on the same connection', async ({ makeFiles }) => {
    const f = await makeFiles({ maxUploadBytes: KiB });
    const conn = await RawConnection.open(await listen(f.panel.app));
    const body = Buffer.alloc(20 * KiB, 'x');
    // files/write refuses the declared length (over the 1 KiB cap) before reading a byte.
    await conn.write(requestHead('POST', `/api/client/servers/${f.s1.uuid}/files/write?file=a.txt`, f.ownerHeaders, body));
    await conn.write(body.subarray(0, KiB));
    const refused = await conn.response();
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).not.toBe('close');
    await conn.write(body.subarray(KiB));
    await conn.write(list(f));
    const next = await conn.response();
    expect(next.status).toBe(200);
    expect(f.exists('a.txt')).toBe(false);
    conn.destroy();
  });

  it('closes cleanly, after the answer, a connection whose refused upload has a large rest', async ({ files: f }) => {
    const conn = await RawConnection.open(await listen(f.panel.app));
    const url = (await f.uploadPath()).replace(/token=[^&]+/, 'token=forged');
    const rest = await startUpload(conn, url, 2048 * KiB, 16 * KiB);
    const refused = await conn.response();
    expect(refused.status).toBe(403);
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toMatchObject({ errors: [{ status: '403' }] });
    // The client may still be sending: what it sends is read and dropped, never answered with a reset.
    await conn.write(rest.subarray(0, 512 * KiB)).catch(() => undefined);
    expect(await conn.end()).toBe('end');
    await expectNoConnections(f.panel.app);
  });

  it('closes cleanly after a 413 for a JSON body over the body limit', async ({ panel }) => {
    const conn = await RawConnection.open(await listen(panel.app));
    const body = Buffer.alloc(panel.config.maxBodyBytes + 256 * KiB, ' ');
    await conn.write(requestHead('POST', '/api/client/account/api-keys', { 'content-type': 'application/json' }, body));
    await conn.write(body.subarray(0, 64 * KiB));
    const refused = await conn.response();
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe('close');
    expect(await conn.end()).toBe('end');
    await expectNoConnections(panel.app);
  });

  it('closes cleanly the connection of a files/write refused at the disk limit half-way through its body', async ({ files: f }) => {
    await setDiskMiB(f, 1);
    const conn = await RawConnection.open(await listen(f.panel.app));
    const body = Buffer.alloc(4096 * KiB, 'x');
    await conn.write(requestHead('POST', `/api/client/servers/${f.s1.uuid}/files/write?file=big.txt`, f.ownerHeaders, body));
    await conn.write(body.subarray(0, 1536 * KiB));
    const refused = await conn.response();
    expect(refused.status, refused.body).toBe(400);
    expect(refused.headers.connection).toBe('close');
    await conn.write(body.subarray(1536 * KiB, 1792 * KiB)).catch(() => undefined);
    expect(await conn.end()).toBe('end');
    await expectNoConnections(f.panel.app);
    expect(f.exists('big.txt')).toBe(false);
  });

  /**
   * Sends `sent` bytes of a 4 MiB upload and expects its refusal with `status`, a clean close after
   * the client sends a little more, and the server's lock free: the next write answers at once.
   */
  async function expectRefusedUpload(f: FileFixture, status: number, sent: number): Promise<void> {
    const conn = await RawConnection.open(await listen(f.panel.app));
    const rest = await startUpload(conn, await f.uploadPath(), 4096 * KiB, sent);
    const refused = await conn.response();
    expect(refused.status, refused.body).toBe(status);
    expect(refused.headers.connection).toBe('close');
    await conn.write(rest.subarray(0, 256 * KiB)).catch(() => undefined);
    expect(await conn.end()).toBe('end');
    await expectNoConnections(f.panel.app);
    const folder = await f.call('POST', 'create-folder', { body: { root: '/', name: 'next' } });
    expect(folder.statusCode).toBe(204);
    expect(f.exists('big.bin')).toBe(false);
  }

  it('closes cleanly the connection of an upload over the upload size cap, and frees the lock', async ({ makeFiles }) => {
    await expectRefusedUpload(await makeFiles({ maxUploadBytes: 256 * KiB }), 413, 1024 * KiB);
  });

  it('closes cleanly the connection of an upload refused at the disk limit, and frees the lock', async ({ files: f }) => {
    await setDiskMiB(f, 1);
    await expectRefusedUpload(f, 400, 1536 * KiB);
  });
});
