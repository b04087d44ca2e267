import net from 'node:net';
import { describe, expect, vi } from 'vitest';
import { it } from '../test/fixtures';
import { listen, rawRequest } from '../test/raw-http';

/*
 * A client that sends its whole request and hangs up without waiting for the answer: the action
 * still happens, so its audit entry must be written too (with the client's address).
 */

/** Sends `request` on a fresh connection and closes it as soon as the bytes are written. */
function sendAndHangUp(port: number, request: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

describe('activity of a client that hung up', () => {
  it('writes the entry of a delete whose client left before the answer', async ({ files: f }) => {
    for (let i = 0; i < 300; i += 1) f.put(`logs/d${i % 10}/f${i}.log`);
    const port = await listen(f.panel.app);
    const body = JSON.stringify({ root: '/', files: ['logs'] });
    const headers = { ...f.ownerHeaders, 'content-type': 'application/json' };
    await sendAndHangUp(port, rawRequest('POST', `/api/client/servers/${f.s1.uuid}/files/delete`, headers, body));
    await vi.waitFor(async () => {
      const rows = await f.panel.db.selectFrom('activity_logs').select(['event', 'ip']).execute();
      expect(rows).toEqual([{ event: 'server:file.delete', ip: '127.0.0.1' }]);
    }, 5000);
    expect(f.exists('logs')).toBe(false);
  });
});
