import ssh2, { type Client as SshClient, type ConnectConfig, type SFTPWrapper } from 'ssh2';

const { Client } = ssh2;
import { sftpAuthenticator } from '../services/sftp-auth';
import type { UserRow } from '../db/schema';
import type { FileFixture } from './files-support';
import type { TestPanel } from './harness';

/** The panel's SFTP server on a free port of 127.0.0.1, rechecking sessions every 50 ms; closed with the test. */
export async function startSftp(panel: TestPanel, onCleanup: (fn: () => Promise<void>) => void) {
  const sftp = await panel.daemon.startSftp({
    ...sftpAuthenticator({ config: panel.config, db: panel.db, nodes: panel.nodes, clock: panel.clock }),
    port: 0,
    host: '127.0.0.1',
    connections: panel.config.sftpConnections,
    recheckMs: 50,
    batchMs: 20,
  });
  onCleanup(sftp.close);
  return sftp;
}

export interface Connected {
  client: SshClient;
  sftp: SFTPWrapper;
  /** Settles when the connection closes. */
  closed: Promise<void>;
}

/** Signs in with ssh2's client (to 127.0.0.1 unless `auth.host` says) and opens the sftp subsystem; rejects when the sign-in is refused. */
export function connect(port: number, auth: Omit<ConnectConfig, 'port'>, onCleanup?: (fn: () => void) => void): Promise<Connected> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    onCleanup?.(() => client.end());
    const closed = new Promise<void>((done) => client.on('close', () => done()));
    client.on('error', reject);
    client.on('ready', () => {
      client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp, closed })));
    });
    client.connect({ host: '127.0.0.1', port, readyTimeout: 10_000, ...auth });
  });
}

/** Promisified SFTP calls. */
export function ops(sftp: SFTPWrapper) {
  const call =
    <T>(fn: (cb: (error: Error | null | undefined, value?: T) => void) => void) =>
    () =>
      new Promise<T>((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value as T))));
  return {
    list: (p: string) => call<{ filename: string }[]>((cb) => sftp.readdir(p, cb))().then((l) => l.map((e) => e.filename).sort()),
    read: (p: string) =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        sftp
          .createReadStream(p)
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => resolve(Buffer.concat(chunks).toString()))
          .on('error', reject);
      }),
    write: (p: string, content: string | Buffer) => call<void>((cb) => sftp.writeFile(p, content, (e) => cb(e)))(),
    rename: (a: string, b: string) => call<void>((cb) => sftp.rename(a, b, (e) => cb(e)))(),
    remove: (p: string) => call<void>((cb) => sftp.unlink(p, (e) => cb(e)))(),
    mkdir: (p: string) => call<void>((cb) => sftp.mkdir(p, (e) => cb(e)))(),
    rmdir: (p: string) => call<void>((cb) => sftp.rmdir(p, (e) => cb(e)))(),
    stat: (p: string) => call<{ size: number }>((cb) => sftp.stat(p, cb))(),
    symlink: (target: string, p: string) => call<void>((cb) => sftp.symlink(target, p, (e) => cb(e)))(),
    chmod: (p: string, mode: number) => call<void>((cb) => sftp.chmod(p, mode, (e) => cb(e)))(),
    realpath: (p: string) => call<string>((cb) => sftp.realpath(p, cb))(),
  };
}

/** Sets (or with `null` removes) `sub`'s permissions on S1 as its owner does, through the API. */
export function setSubuser(files: FileFixture, sub: Pick<UserRow, 'uuid'>, permissions: string[] | null) {
  return files.panel.app.inject({
    method: permissions ? 'POST' : 'DELETE',
    url: `/api/client/servers/${files.s1.uuid}/users/${sub.uuid}`,
    headers: files.ownerHeaders,
    ...(permissions ? { payload: { permissions } } : {}),
  });
}
