import { describe, expect } from 'vitest';
import { it } from '../test/fixtures';
import { listen, RawConnection, rawRequest } from '../test/raw-http';

/*
 * Issue 21, finding 7: a tenant's program opened ~20,000 connections to the panel from 2,000
 * loopback addresses until the panel ran out of descriptors. The HTTP server now holds at most
 * PANEL_MAX_CONNECTIONS, and one address bucket (all of 127.0.0.0/8 is one) at most
 * PANEL_MAX_CONNECTIONS_PER_IP; a connection over either is closed before it is read.
 */

const ASK = rawRequest('GET', '/api/client', {});

type Open = (from: { host?: string; localAddress?: string }) => Promise<RawConnection>;

/** A connection the panel keeps: its request is answered (401, signed out) and it stays open. */
async function held(open: Open, from: { host?: string; localAddress?: string }): Promise<RawConnection> {
  const conn = await open(from);
  await conn.write(ASK);
  expect((await conn.response()).status).toBe(401);
  return conn;
}

/** A connection the panel closes without answering. */
async function refused(open: Open, from: { host?: string; localAddress?: string }): Promise<void> {
  const conn = await open(from);
  await conn.write(ASK).catch(() => undefined);
  await expect(conn.response(2000)).rejects.toThrow(/ended/);
  await conn.end(2000);
}

describe('connection caps on the HTTP server', () => {
  it('one address bucket holds at most its share: the rest of 127.0.0.0/8 is refused, ::1 still gets its answer', async ({
    makePanel,
    onTestFinished,
  }) => {
    const panel = await makePanel({ connections: { total: 20, perAddress: 3 } });
    const port = await listen(panel.app, '::');
    const open: Open = async (from) => {
      const conn = await RawConnection.open(port, from);
      onTestFinished(() => conn.destroy());
      return conn;
    };
    // Three loopback addresses, one tenant: the old code counted none of them.
    const tenant = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((a) => held(open, { localAddress: a })));
    await refused(open, { localAddress: '127.0.0.5' });
    await refused(open, { localAddress: '127.0.0.1' });
    // Another bucket is not affected.
    await held(open, { host: '::1' });
    // A connection closed frees its place.
    tenant[0]?.destroy();
    await tenant[0]?.closed;
    await expect.poll(async () => (await open({ localAddress: '127.0.0.9' }).then((c) => c.write(ASK).then(() => c.response()))).status).toBe(401);
  });

  it('the whole server holds at most PANEL_MAX_CONNECTIONS, whoever opens them', async ({ makePanel, onTestFinished }) => {
    const panel = await makePanel({ connections: { total: 4, perAddress: 0 } });
    const port = await listen(panel.app, '::');
    const open: Open = async (from) => {
      const conn = await RawConnection.open(port, from);
      onTestFinished(() => conn.destroy());
      return conn;
    };
    const four = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => held(open, { localAddress: a })));
    await refused(open, { host: '::1' });
    four[0]?.destroy();
    await four[0]?.closed;
    await expect.poll(async () => (await open({ host: '::1' }).then((c) => c.write(ASK).then(() => c.response()))).status).toBe(401);
  });

  it('behind a trusted proxy only the total is capped: every client comes from the proxy', async ({ makePanel, onTestFinished }) => {
    const panel = await makePanel({ trustProxy: true, connections: { total: 20, perAddress: 2 } });
    const port = await listen(panel.app);
    const conns = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const conn = await RawConnection.open(port);
        onTestFinished(() => conn.destroy());
        return conn;
      }),
    );
    for (const conn of conns) {
      await conn.write(ASK);
      expect((await conn.response()).status).toBe(401);
    }
  });
});
