import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import type { Config } from '../config';
import type { Db } from '../db';
import { databaseHosts } from '../db/repos';
import { sha256 } from '../lib/crypto';
import type { SecretBox } from '../lib/secret-box';
import { newDatabasePassword } from './database-operations';
import { hostError, parseHostUrl, saveHost, type HostAccess } from './database-hosts';

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

const SEARCH_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];

function findProgram(names: readonly string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const name of names) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export interface MariadbPrograms {
  server: string;
  installDb: string;
}

/** mariadbd (or mysqld) and mariadb-install-db (or mysql_install_db), on the PATH or in the sbin dirs. */
export function findMariadb(): MariadbPrograms | undefined {
  const server = findProgram(['mariadbd', 'mysqld']);
  const installDb = findProgram(['mariadb-install-db', 'mysql_install_db']);
  return server && installDb ? { server, installDb } : undefined;
}

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

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'];

function asRoot(): string[] {
  // mariadbd refuses to run as root unless told to; under any other user it runs as that user.
  return process.getuid?.() === 0 ? ['--user=root'] : [];
}

function socketPath(dir: string): string {
  const inside = path.join(dir, 'mariadb.sock');
  // A Unix socket's path has at most 107 bytes.
  return inside.length <= 100 ? inside : path.join(os.tmpdir(), `aerie-mariadb-${sha256(dir).slice(0, 16)}.sock`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An instance of this directory left running (its pid file names a live mariadbd on our data dir) is stopped. */
async function stopStale(pidFile: string, dataDir: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false;
  }
  if (!cmdline.includes(`--datadir=${dataDir}`)) return false;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 300 && isAlive(pid); i += 1) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return true;
}

function tail(file: string, lines = 5): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Connects over the socket; resolves once the server answers (even "access denied" means it is up). */
async function waitReady(socket: string, exited: () => string | undefined, timeoutMs: number, errorLog: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`MariaDB stopped while starting (${gone}). Its log says:\n${tail(errorLog)}`);
    try {
      const conn = await mysql.createConnection({ socketPath: socket, user: 'root', password: '', connectTimeout: 1000 });
      await conn.end();
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') return;
    }
    if (Date.now() > deadline) throw new Error(`MariaDB did not accept connections within ${timeoutMs / 1000}s. Its log says:\n${tail(errorLog)}`);
    await sleep(200);
  }
}

/**
 * The generated admin password: every local `root` account gets it (a fresh data dir's root has none).
 * It is sealed into the directory before it is set, so a start cut short between the two is
 * finished at the next one.
 */
async function secure(dir: string, socket: string, access: HostAccess): Promise<void> {
  try {
    const conn = await mysql.createConnection({ host: access.host, port: access.port, user: access.username, password: access.password });
    await conn.end();
    return;
  } catch {
    // not set yet: the socket still lets root in without one
  }
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ socketPath: socket, user: 'root', password: '' });
  } catch (error) {
    throw hostError(
      error,
      `The managed MariaDB in ${dir} does not take its stored admin password and has another one set (remove ${dir} to start over)`,
      [access.password],
    );
  }
  try {
    const [users] = await conn.query<mysql.RowDataPacket[]>("SELECT User, Host FROM mysql.user WHERE User IN ('root', '')");
    // Only local root accounts stay (root@<machine name> is of no use with --skip-name-resolve).
    for (const u of users) {
      if (u.User === 'root' && LOCAL_HOSTS.includes(String(u.Host)))
        await conn.query('ALTER USER ?@? IDENTIFIED BY ?', [u.User, u.Host, access.password]);
      else await conn.query('DROP USER ?@?', [u.User, u.Host]);
    }
  } catch (error) {
    throw hostError(error, "Could not set the managed MariaDB's admin password", [access.password]);
  } finally {
    await conn.end().catch(() => conn.destroy());
  }
}

const PASSWORD_FILE = 'admin-password.sealed';

/** The managed instance's admin password, kept sealed in its directory; null before its first start. */
function readManagedPassword(dir: string, box: SecretBox): string | null {
  const file = path.join(dir, PASSWORD_FILE);
  return fs.existsSync(file) ? box.open(fs.readFileSync(file, 'utf8').trim()) : null;
}

export async function startManagedMariadb(options: ManagedOptions): Promise<ManagedMariadb> {
  const programs = options.programs ?? findMariadb();
  if (!programs) throw new Error('MariaDB is not installed (no mariadbd or mysqld, mariadb-install-db on the PATH or in /usr/sbin).');
  const dir = path.resolve(options.dir);
  const dataDir = path.join(dir, 'data');
  const pidFile = path.join(dir, 'mariadb.pid');
  const errorLog = path.join(dir, 'error.log');
  const passwordFile = path.join(dir, PASSWORD_FILE);
  const socket = socketPath(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  await stopStale(pidFile, dataDir);

  if (!fs.existsSync(path.join(dataDir, 'mysql'))) {
    // A first start, or one cut short during initialisation: start from an empty data dir.
    fs.rmSync(dataDir, { recursive: true, force: true });
    try {
      await run(programs.installDb, [
        '--no-defaults',
        `--datadir=${dataDir}`,
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

  let password = readManagedPassword(dir, options.box);
  if (password === null) {
    password = newDatabasePassword();
    fs.writeFileSync(passwordFile, `${options.box.seal(password)}\n`, { mode: 0o600 });
  }
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
