import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, vi } from 'vitest';
import { nodePath } from '../test/files-support';
import { it } from '../test/fixtures';

/*
 * A slow or vanished uploader on a real socket: its body is received outside the server's write
 * lock, so the server's other writes go on meanwhile (within what it reserved), and a client that
 * goes away gives its reservation and its temporary file back at once.
 */

const KiB = 1024;
const boundary = 'aerieStall';

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the panel is not listening on a TCP port');
  return address.port;
}

describe('an upload whose body stalls', () => {
  it('holds up no other write, and gives everything back when its client goes away', async ({ files: f }) => {
    await f.panel.db.updateTable('servers').set({ disk: 1 }).where('id', '=', f.s1.id).execute();
    await f.panel.reconfigure(f.s1);
    const area = path.join(f.v1, '..', '.aerie-tmp');
    const link = await f.panel.app.inject({ method: 'GET', url: `/api/client/servers/${f.s1.uuid}/files/upload`, headers: f.ownerHeaders });
    const port = await listen(f.panel.app);

    // Headers and 700 KiB of a 900 KiB file, then nothing.
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="world.zip"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const length = Buffer.byteLength(head) + 900 * KiB + Buffer.byteLength(`\r\n--${boundary}--\r\n`);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${nodePath(link.json())} HTTP/1.1\r\nhost: localhost\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${length}\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(700 * KiB, 0x61));
    await vi.waitFor(() => expect(fs.readdirSync(area).map((n) => fs.statSync(path.join(area, n)).size)).toEqual([700 * KiB]), 5000);

    expect((await f.call('POST', 'create-folder', { body: { root: '/', name: 'meanwhile' } })).statusCode).toBe(204);
    expect((await f.call('POST', 'write', { query: { file: 'small.txt' }, raw: 'x'.repeat(50 * KiB) })).statusCode).toBe(204);
    expect((await f.call('POST', 'write', { query: { file: 'big.bin' }, raw: 'x'.repeat(300 * KiB) })).statusCode).toBe(400);

    socket.destroy();
    await vi.waitFor(() => expect(fs.readdirSync(area)).toEqual([]), 5000);
    expect((await f.call('POST', 'write', { query: { file: 'big.bin' }, raw: 'x'.repeat(800 * KiB) })).statusCode).toBe(204);
    expect(fs.readdirSync(f.v1).sort()).toEqual(['big.bin', 'meanwhile', 'small.txt']);
  });
});
