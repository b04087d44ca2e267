import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { servers } from '../server/db/repos';
import { sftpAuthenticator } from '../server/services/sftp-auth';
import { testConfig } from '../server/config';
import { nodeDaemons } from '../server/services/node-daemons';
import { loadSecretBox } from '../server/lib/secret-box';
import { startBenchPanel } from './panel';

/*
 * SFTP benchmark for `npm run bench` (printed, never asserted): an upload and a download of one
 * file (AERIE_BENCH_SFTP_MB, 200 MB by default) over loopback with ssh2's client (fastPut and
 * fastGet, AES-GCM), each beside `cp` of the same file in the same run. Target: 100 MB/s each way.
 */

const run = promisify(execFile);
const SIZE_MB = Number(process.env.AERIE_BENCH_SFTP_MB ?? 200);
const TARGET_MBS = 100;
/** Found by trying: many small writes up (ssh2 splits a write past its packet size), few large reads down. */
const UPLOAD = { concurrency: 64, chunkSize: 64 * 1024 };
const DOWNLOAD = { concurrency: 32, chunkSize: 256 * 1024 };

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const mbs = (ms: number) => SIZE_MB / (ms / 1000);

export async function benchSftp(): Promise<string[]> {
  const panel = await startBenchPanel();
  const local = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-bench-sftp-'));
  let stop: (() => Promise<void>) | undefined;
  try {
    const { user, server } = await panel.owner('sftpbench');
    // No disk limit and settled, whatever the CLI's defaults: only the transfer is measured.
    const row = await servers.findByIdentifier(panel.db, server.uuid);
    if (!row) throw new Error('no bench server');
    await panel.db.updateTable('servers').set({ disk: 0, status: null }).where('id', '=', row.id).execute();
    await panel.daemon.servers.sync(server.uuid);
    const deps = {
      config: testConfig({ dataDir: panel.dataDir }),
      db: panel.db,
      nodes: nodeDaemons(panel.daemon, loadSecretBox(panel.dataDir)),
      clock: panel.clock,
    };
    const sftpServer = await panel.daemon.startSftp({ ...sftpAuthenticator(deps), port: 0, host: '127.0.0.1' });
    stop = sftpServer.close;

    const source = path.join(local, 'source.bin');
    const chunk = randomBytes(1024 * 1024);
    const fd = fs.openSync(source, 'w');
    for (let i = 0; i < SIZE_MB; i += 1) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    const cpMs = await time(() => run('cp', [source, path.join(local, 'cp-copy.bin')]));

    const client = new ssh2.Client();
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
      client.on('error', reject);
      client.on('ready', () => client.sftp((error, s) => (error ? reject(error) : resolve(s))));
      client.connect({
        host: '127.0.0.1',
        port: sftpServer.port,
        username: `sftpbench.${server.identifier}`,
        password: user.password,
        algorithms: { cipher: ['aes128-gcm@openssh.com'] },
      });
    });
    const upMs = await time(
      () => new Promise<void>((resolve, reject) => sftp.fastPut(source, '/big.bin', UPLOAD, (e) => (e ? reject(e) : resolve()))),
    );
    const stored = fs.statSync(path.join(panel.daemon.volumePath(server.uuid), 'big.bin')).size;
    const fetched = path.join(local, 'fetched.bin');
    const downMs = await time(
      () => new Promise<void>((resolve, reject) => sftp.fastGet('/big.bin', fetched, DOWNLOAD, (e) => (e ? reject(e) : resolve()))),
    );
    client.end();
    if (stored !== SIZE_MB * 1024 * 1024 || fs.statSync(fetched).size !== stored) throw new Error('the transferred sizes do not match');

    const line = (what: string, ms: number) => {
      const rate = mbs(ms);
      const pass = rate >= TARGET_MBS ? 'ok' : 'UNDER TARGET';
      return `  ${what.padEnd(9)} ${rate.toFixed(0).padStart(5)} MB/s  (${(ms / 1000).toFixed(2)} s; cp ${mbs(cpMs).toFixed(0)} MB/s, ratio to cp ${(ms / cpMs).toFixed(1)}×)  ${pass}`;
    };
    return [
      `sftp: ${SIZE_MB} MB over loopback, ssh2 client (aes128-gcm; fastPut ${UPLOAD.concurrency}×${UPLOAD.chunkSize / 1024} KiB, fastGet ${DOWNLOAD.concurrency}×${DOWNLOAD.chunkSize / 1024} KiB), target ${TARGET_MBS} MB/s each way`,
      line('upload', upMs),
      line('download', downMs),
    ];
  } finally {
    await stop?.();
    await panel.close();
    fs.rmSync(local, { recursive: true, force: true });
  }
}
