import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { test } from './fixtures';
import { startNode } from './node-support';

/*
 * The node the tests start sits in a network namespace of its own (issue 24 §5): it reaches the
 * panel's port and nothing else the host listens on, as on a machine of its own.
 */

const execFileAsync = promisify(execFile);

/** Connects to 127.0.0.1:`port` from inside the node's network namespace: 'open' or the error code. */
async function reachFromNode(pid: number, port: number): Promise<string> {
  const script = `require('net').connect(${port}, '127.0.0.1').on('connect', function () { console.log('open'); this.destroy(); }).on('error', (e) => console.log(e.code));`;
  const { stdout } = await execFileAsync('nsenter', ['-t', String(pid), '-n', '--', process.execPath, '-e', script], { timeout: 10_000 });
  return stdout.trim();
}

const it = test.extend('remote', async ({ panel }, { onCleanup }) => startNode(panel, onCleanup));

it('reaches the panel port it was given and no other port the host listens on, and stops with the node', async ({ remote, skip, onTestFinished }) => {
  if (!remote.process.isolated) skip('no network namespace on this machine (see the warning above)');
  const pid = remote.process.pid();
  expect(pid).toBeTypeOf('number');
  if (pid === undefined) return;
  // A service on the host's loopback (as the panel's mail or MariaDB would be), not forwarded.
  const other = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => void other.close());
  const address = other.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const panelPort = Number(new URL(remote.panelUrl).port);
  expect(await reachFromNode(pid, panelPort)).toBe('open');
  expect(await reachFromNode(pid, address.port)).toBe('ECONNREFUSED');
  // The host reaches the node's API through the forwarded port.
  expect((await remote.call('GET', '/api/system')).status).toBe(200);
  // SIGTERM reaches the node itself (pasta alone would leave it running), and its exit code comes back.
  expect(await remote.stop()).toBe(0);
  expect(remote.output()).toContain('SIGTERM received');
  expect(() => process.kill(pid, 0)).toThrow();
});
