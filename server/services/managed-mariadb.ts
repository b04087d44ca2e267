import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../config';
import type { Db } from '../db';
import { databaseHosts } from '../db/repos';
import { sha256 } from '../lib/crypto';
import type { SecretBox } from '../lib/secret-box';
import { parseHostUrl, saveHost, type HostAccess } from './database-hosts';
import { managedPassword, readManagedPassword, secure } from './managed-mariadb-admin';
import { stopStale, waitReady } from './mariadb-liveness';
import { findMariadb, type MariadbPrograms } from './mariadb-programs';

/*
 * The managed MariaDB: when no database host is configured and MariaDB is installed, the panel
 * runs an instance of its own under `<data dir>/mariadb` (its data, socket, pid file, error log
 * and the sealed admin password), on 127.0.0.1 only, and registers it as the host `default`.
 *
 * It must not outlive the panel, even a killed one: mariadbd runs under a small shell that holds
 * the read end of a pipe whose write end only the panel holds. When the panel closes it (a clean
 * stop) or dies (the kernel closes it), the shell reads end-of-file and sends mariadbd SIGTERM, its
 * clean shutdown. It runs in its own process group, so a Ctrl+C meant for the panel does not hit it
 * first. A pid file left by an instance that still runs anyway is stopped at the next start.
 */

const run = promisify(execFile);

const WATCHER = [
  'exec 3<&0',
  '"$@" </dev/null 3<&- &',
  'pid=$!',
  '{ read -r _ <&3; kill -TERM "$pid" 2>/dev/null; } &',
  'watcher=$!',
  'wait "$pid"; status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

export { findMariadb, type MariadbPrograms } from './mariadb-programs';

export interface ManagedMariadb {
  /** How the panel reaches it as its admin (127.0.0.1 and the port). */
  access: HostAccess;
  socket: string;
  /** Stops it cleanly (SIGTERM, then SIGKILL past the timeout) and waits until it has gone. */
  stop: () => Promise<void>;
}

export interface ManagedOptions {
  /** Its own directory: `<data dir>/mariadb`, or a test's temp dir. */
  dir: string;
  port: number;
  box: SecretBox;
  programs?: MariadbPrograms;
  /** Milliseconds to wait for it to accept connections. */
  readyTimeoutMs?: number;
}

// Small: the panel's databases are a game server's plugin tables, not a data warehouse.
const TUNING = [
  '--skip-name-resolve',
  '--performance-schema=OFF',
  '--innodb-buffer-pool-size=32M',
  '--innodb-log-file-size=8M',
  '--character-set-server=utf8mb4',
  '--collation-server=utf8mb4_unicode_ci',
];

function asRoot(): string[] {
  // mariadbd refuses to run as root unless told to; under any other user it runs as that user.
  return process.getuid?.() === 0 ? ['--user=root'] : [];
}

function socketPath(dir: string): string {
  const inside = path.join(dir, 'mariadb.sock');
  // A Unix socket's path has at most 107 bytes.
  return inside.length <= 100 ? inside : path.join(os.tmpdir(), `aerie-mariadb-${sha256(dir).slice(0, 16)}.sock`);
}

export async function startManagedMariadb(options: ManagedOptions): Promise<ManagedMariadb> {
  const programs = options.programs ?? findMariadb();
  if (!programs) throw new Error('MariaDB is not installed (no mariadbd or mysqld, mariadb-install-db on the PATH or in /usr/sbin).');
  const dir = path.resolve(options.dir);
  const dataDir = path.join(dir, 'data');
  const pidFile = path.join(dir, 'mariadb.pid');
  const errorLog = path.join(dir, 'error.log');
  const socket = socketPath(dir);
  // Its own temporary directory: in the shared /tmp, a table file left by an earlier MariaDB whose
  // process id this one reuses breaks mariadb-install-db ("Unknown table 'mysql.tmp_user_sys'").
  const tmpDir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
  await stopStale(pidFile, dataDir);

  if (!fs.existsSync(path.join(dataDir, 'mysql'))) {
    // A first start, or one cut short during initialisation: start from an empty data dir.
    fs.rmSync(dataDir, { recursive: true, force: true });
    try {
      await run(programs.installDb, [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--tmpdir=${tmpDir}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...asRoot(),
        '--innodb-log-file-size=8M',
      ]);
    } catch (error) {
      const err = error as { stderr?: string; message: string };
      throw new Error(`mariadb-install-db failed: ${(err.stderr ?? err.message).trim().split('\n').slice(-3).join(' ')}`, { cause: error });
    }
  }

  const password = managedPassword(dir, options.box);
  const access: HostAccess = { host: '127.0.0.1', port: options.port, username: 'root', password };

  const child = spawn(
    '/bin/sh',
    [
      '-c',
      WATCHER,
      'aerie-mariadb',
      programs.server,
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--tmpdir=${tmpDir}`,
      `--socket=${socket}`,
      `--pid-file=${pidFile}`,
      `--port=${options.port}`,
      '--bind-address=127.0.0.1',
      `--log-error=${errorLog}`,
      ...asRoot(),
      ...TUNING,
    ],
    { stdio: ['pipe', 'ignore', 'ignore'], detached: true },
  );
  let exitedWith: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedWith = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
    child.once('error', (error) => {
      exitedWith = error.message;
      resolve();
    });
  });
  child.stdin?.on('error', () => {});

  const stop = async () => {
    if (exitedWith === undefined) child.stdin?.end();
    const killer = setTimeout(() => {
      if (child.pid !== undefined && exitedWith === undefined) process.kill(-child.pid, 'SIGKILL');
    }, 60_000);
    await exited;
    clearTimeout(killer);
  };

  try {
    await waitReady(socket, () => exitedWith, options.readyTimeoutMs ?? 60_000, errorLog);
    await secure(dir, socket, access);
  } catch (error) {
    await stop();
    throw error;
  }
  return { access, socket, stop };
}

export interface DatabaseHostsAtStart {
  /** What happened, said once at start. */
  message: string;
  managed?: ManagedMariadb;
}

/**
 * At start: PANEL_DB_HOST_URL registers (or updates) the host `default`; otherwise, unless turned
 * off or another host is configured, the managed MariaDB is started and registered as `default`.
 */
export async function setUpDatabaseHosts(db: Db, box: SecretBox, config: Config, now: Date): Promise<DatabaseHostsAtStart> {
  if (config.dbHostUrl) {
    const access = parseHostUrl(config.dbHostUrl);
    await saveHost(db, box, { name: 'default', ...access }, now, true);
    return { message: `Database host "default" is ${access.username}@${access.host}:${access.port} (PANEL_DB_HOST_URL).` };
  }
  if (!config.managedMariadb) return { message: 'Managed MariaDB turned off (PANEL_MANAGED_MARIADB=false).' };
  const hosts = await databaseHosts.all(db);
  const dir = path.join(config.dataDir, 'mariadb');
  // Ours: the host `default` on this machine holding the managed instance's admin password, so a
  // changed PANEL_MARIADB_PORT moves it (its databases with it) instead of leaving it behind.
  const managedPassword = readManagedPassword(dir, box);
  const ours = (h: (typeof hosts)[number]) =>
    h.name === 'default' &&
    h.host === '127.0.0.1' &&
    (h.port === config.mariadbPort || (managedPassword !== null && box.open(h.password) === managedPassword));
  if (hosts.some((h) => !ours(h))) return { message: `Database hosts: ${hosts.map((h) => h.name).join(', ')} (no managed MariaDB).` };
  const programs = findMariadb();
  if (!programs) {
    return {
      message:
        'No database host: MariaDB is not installed (install mariadb-server, or add a host with `npm run -s panel -- dbhost:create`), so servers cannot have databases.',
    };
  }
  const managed = await startManagedMariadb({ dir, port: config.mariadbPort, box, programs });
  try {
    await saveHost(db, box, { name: 'default', ...managed.access }, now, true);
  } catch (error) {
    await managed.stop();
    throw error;
  }
  return {
    message: `Managed MariaDB started on 127.0.0.1:${config.mariadbPort} (data in ${dir}), database host "default".`,
    managed,
  };
}
