import { describe, expect } from 'vitest';
import type { FileFixture } from '../test/files-support';
import { it } from '../test/fixtures';
import { listen, multipartFile, RawConnection, rawRequest } from '../test/raw-http';

/*
 * Slow clients (slow-loris) are cut off: headers must arrive within PANEL_HEADERS_TIMEOUT_MS and
 * a connection may stay silent for PANEL_IDLE_TIMEOUT_MS, but a body still moving has no total
 * limit. An upload cut off, abandoned or hung up on frees the server's write lock at once.
 */

const KiB = 1024;

/** Fails when `promise` takes longer than `ms`: what it waits on must not hang. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

/** The next write on S1 answers (the write lock is free). */
async function expectLockFree(f: FileFixture, name: string): Promise<void> {
  const res = await within(2000, f.call('POST', 'create-folder', { body: { root: '/', name } }));
  expect(res.statusCode).toBe(204);
  expect(f.exists(name)).toBe(true);
}

function upload(size: number) {
  const { body, contentType } = multipartFile('big.bin', Buffer.alloc(size, 'x'));
  return { body, headers: { 'content-type': contentType } };
}

describe('slow clients', () => {
  it('cuts off a client that sends half its headers and waits', async ({ makePanel }) => {
    const panel = await makePanel({ headersTimeoutMs: 300 });
    const conn = await RawConnection.open(await listen(panel.app));
    await conn.write('GET /api/client HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    await expect(conn.end(3000)).resolves.toBeTruthy();
  });

  it('cuts off a client that trickles its headers a byte at a time', async ({ makePanel }) => {
    const panel = await makePanel({ headersTimeoutMs: 300, idleTimeoutMs: 5000 });
    const conn = await RawConnection.open(await listen(panel.app));
    await conn.write('GET /api/client HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    // Never silent for the idle timeout, so only the headers timeout can end it.
    const trickle = setInterval(() => conn.socket.write('a', () => undefined), 50);
    try {
      await expect(conn.end(3000)).resolves.toBeTruthy();
    } finally {
      clearInterval(trickle);
    }
  });

  it('keeps a quiet keep-alive connection past the headers timeout until the idle timeout', async ({ makePanel }) => {
    const panel = await makePanel({ headersTimeoutMs: 200, idleTimeoutMs: 5000 });
    const conn = await RawConnection.open(await listen(panel.app));
    await conn.write(rawRequest('GET', '/api/client', {}));
    expect((await conn.response()).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await conn.write(rawRequest('GET', '/api/client', {}));
    expect((await conn.response()).status).toBe(401);
  });

  it('cuts off an upload whose body stops arriving, and frees the write lock', async ({ makeFiles }) => {
    const f = await makeFiles({ idleTimeoutMs: 300 });
    const conn = await RawConnection.open(await listen(f.panel.app));
    const { body, headers } = upload(2048 * KiB);
    await conn.sendPart('POST', await f.uploadPath(), headers, body, 256 * KiB);
    await expect(conn.end(3000)).resolves.toBeTruthy();
    await expectLockFree(f, 'after-idle');
    expect(f.exists('big.bin')).toBe(false);
  });

  it('lets a slow upload finish as long as its body keeps moving', async ({ makeFiles }) => {
    const f = await makeFiles({ idleTimeoutMs: 400 });
    const conn = await RawConnection.open(await listen(f.panel.app));
    const { body, headers } = upload(64 * KiB);
    // Ten pieces 150 ms apart: longer than the idle timeout in all, never silent that long.
    const slice = Math.ceil(body.length / 10);
    let rest = await conn.sendPart('POST', await f.uploadPath(), headers, body, slice);
    while (rest.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await conn.write(rest.subarray(0, slice));
      rest = rest.subarray(slice);
    }
    expect((await conn.response()).status).toBe(204);
    expect(f.read('big.bin').length).toBe(64 * KiB);
    conn.destroy();
  });
});

describe("the panel's own slow work", () => {
  it('is not cut off by the idle timeout once the request has arrived', async ({ makePanel }) => {
    const panel = await makePanel({ idleTimeoutMs: 200 });
    // Stands for a long compress or extract: nothing is sent until the work is done.
    panel.app.get('/test/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      return { done: true };
    });
    const conn = await RawConnection.open(await listen(panel.app));
    await conn.write(rawRequest('GET', '/test/slow', {}));
    const res = await conn.response(3000);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ done: true });
  });
});

describe('an upload whose client hangs up', () => {
  it('frees the write lock when the client sent its whole body and left', async ({ files: f }) => {
    const conn = await RawConnection.open(await listen(f.panel.app));
    const { body, headers } = upload(1024 * KiB);
    await conn.write(rawRequest('POST', await f.uploadPath(), headers, body));
    conn.destroy();
    await expectLockFree(f, 'after-hangup');
  });

  it('frees the write lock at once when the client leaves mid-body, storing nothing', async ({ files: f }) => {
    const conn = await RawConnection.open(await listen(f.panel.app));
    const { body, headers } = upload(2048 * KiB);
    await conn.sendPart('POST', await f.uploadPath(), headers, body, 512 * KiB);
    conn.destroy();
    await expectLockFree(f, 'after-abort');
    expect(f.exists('big.bin')).toBe(false);
  });
});
