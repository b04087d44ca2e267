import net from 'node:net';
import { describe, expect } from 'vitest';
import type { ConnectionCaps } from '../config';
import { sftpAuthenticator } from '../services/sftp-auth';
import type { FileFixture } from '../test/files-support';
import { test } from '../test/fixtures';
import { connect, ops } from '../test/sftp-support';

/*
 * Issue 21, finding 7, on the SFTP listener: signed-in and pending connections together are
 * capped per address bucket (all of 127.0.0.0/8 is one) and in all, so a tenant holding many
 * loopback addresses cannot take every descriptor; another client still signs in.
 */

const PASSWORD = 'correct horse battery';

type Finished = (fn: () => void | Promise<void>) => void;

async function startNode(files: FileFixture, connections: ConnectionCaps, onTestFinished: Finished) {
  const { panel } = files;
  const node = await panel.daemon.startSftp({
    ...sftpAuthenticator({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock }),
    port: 0,
    host: '::',
    connections,
  });
  onTestFinished(node.close);
  return node;
}

/** A socket that never signs in; `closed` settles when the node drops it. */
async function silent(port: number, from: { host?: string; localAddress?: string }, onTestFinished: Finished) {
  const socket = net.connect({ port, host: from.host ?? '127.0.0.1', localAddress: from.localAddress });
  socket.on('error', () => undefined);
  socket.resume();
  onTestFinished(() => void socket.destroy());
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed };
}

const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms).unref())]);

describe('SFTP connection caps', () => {
  test('one bucket holds at most its share, signed in or not; ::1 still signs in; a closed one frees its place', async ({
    files,
    onTestFinished,
  }) => {
    const node = await startNode(files, { total: 20, perAddress: 3 }, onTestFinished);
    const auth = { username: `${files.owner.username}.${files.s1.uuid.slice(0, 8)}`, password: PASSWORD };
    // Two sessions and a socket that never signs in, from three addresses of 127.0.0.0/8.
    const first = await connect(node.port, { ...auth, localAddress: '127.0.0.2' }, onTestFinished);
    await connect(node.port, { ...auth, localAddress: '127.0.0.3' }, onTestFinished);
    await silent(node.port, { localAddress: '127.0.0.4' }, onTestFinished);
    // A fourth, from yet another loopback address, is dropped at once.
    const over = await silent(node.port, { localAddress: '127.0.0.5' }, onTestFinished);
    await within(2000, over.closed);
    await expect(connect(node.port, { ...auth, localAddress: '127.0.0.6' }, onTestFinished)).rejects.toThrow();
    // Another bucket signs in and works.
    expect(await ops((await connect(node.port, { ...auth, host: '::1' }, onTestFinished)).sftp).list('/')).toEqual([]);
    first.client.end();
    await first.closed;
    await expect.poll(() => connect(node.port, { ...auth, localAddress: '127.0.0.7' }, onTestFinished).then(() => true)).toBe(true);
  });

  test('the listener holds at most its total, whoever opens the connections', async ({ files, onTestFinished }) => {
    const node = await startNode(files, { total: 4, perAddress: 0 }, onTestFinished);
    const held = await Promise.all(
      ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => silent(node.port, { localAddress: a }, onTestFinished)),
    );
    await within(2000, (await silent(node.port, { host: '::1' }, onTestFinished)).closed);
    held[0]?.socket.destroy();
    await held[0]?.closed;
    const auth = { username: `${files.owner.username}.${files.s1.uuid.slice(0, 8)}`, password: PASSWORD, host: '::1' };
    await expect.poll(() => connect(node.port, auth, onTestFinished).then(() => true)).toBe(true);
    // Still held: the other three are not dropped.
    expect(held.slice(1).every((h) => !h.socket.destroyed)).toBe(true);
  });
});
