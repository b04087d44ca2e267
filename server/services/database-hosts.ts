import mysql from 'mysql2/promise';
import type { Db } from '../db';
import { databaseHosts } from '../db/repos';
import type { DatabaseHostRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';

/*
 * Database hosts: MariaDB or MySQL servers the panel creates server databases on, each through an
 * admin account. The account's password is sealed at rest and never leaves this module in a
 * result, a message or a log: mysql2's errors carry the statement they ran (`sql`, which may hold
 * `IDENTIFIED BY '…'`) and their connection's details, so only a rewritten message gets out.
 */

/** How to reach a host as its admin. */
export interface HostAccess {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** A host as the CLI and logs may show it: everything but the password. */
export interface DatabaseHostView {
  id: number;
  name: string;
  host: string;
  port: number;
  username: string;
  max_databases: number | null;
  /** MAX_USER_CONNECTIONS of each database user made on this host. */
  max_connections_per_user: number;
  node_id: number | null;
  databases: number;
}

/** A host refused or could not be reached; the message names no secret. */
export class DatabaseHostError extends Error {
  constructor(
    message: string,
    /** The host could not be reached at all (as opposed to refusing a statement). */
    readonly unreachable = false,
    /** mysql2's or the socket's error code (ER_ACCESS_DENIED_ERROR, ECONNREFUSED), when there was one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
]);

/** A mysql2 (or socket) failure as a DatabaseHostError without the statement or any secret in it. */
export function hostError(error: unknown, context: string, secrets: readonly string[] = []): DatabaseHostError {
  if (error instanceof DatabaseHostError) return error;
  const err = error as { code?: string; message?: string; sqlMessage?: string };
  let text = err.sqlMessage ?? err.message ?? String(error);
  for (const secret of secrets) if (secret) text = text.split(secret).join('***');
  const code = err.code ? ` (${err.code})` : '';
  return new DatabaseHostError(`${context}: ${text}${code}`, err.code !== undefined && UNREACHABLE_CODES.has(err.code), err.code);
}

/** One admin connection to a host, for one use; errors come out as DatabaseHostError. */
export async function connectHost(access: HostAccess): Promise<mysql.Connection> {
  try {
    return await mysql.createConnection({
      host: access.host,
      port: access.port,
      user: access.username,
      password: access.password,
      connectTimeout: 5000,
      multipleStatements: false,
    });
  } catch (error) {
    throw hostError(error, `Could not connect to ${access.host}:${access.port} as ${access.username}`, [access.password]);
  }
}

/** Runs `fn` on a fresh admin connection and closes it after, whatever happens. */
export async function withHost<T>(access: HostAccess, fn: (conn: mysql.Connection) => Promise<T>): Promise<T> {
  const conn = await connectHost(access);
  // A connection the host drops later must not become an unhandled 'error' event.
  conn.on('error', () => {});
  try {
    return await fn(conn);
  } finally {
    await conn.end().catch(() => conn.destroy());
  }
}

export const REQUIRED_HOST_PRIVILEGES = ['CREATE', 'DROP', 'CREATE USER', 'GRANT OPTION'] as const;

/** The global privileges (`ON *.*`) named in SHOW GRANTS lines; `ALL PRIVILEGES` stands for every one. */
export function globalPrivileges(grants: readonly string[]): Set<string> {
  const held = new Set<string>();
  for (const line of grants) {
    const match = /^GRANT (.+?) ON \*\.\* TO /i.exec(line);
    if (!match?.[1]) continue;
    for (const p of match[1].split(',')) held.add(p.trim().toUpperCase());
    if (/ WITH GRANT OPTION\s*$/i.test(line)) held.add('GRANT OPTION');
  }
  if (held.has('ALL PRIVILEGES') || held.has('ALL')) for (const p of REQUIRED_HOST_PRIVILEGES) if (p !== 'GRANT OPTION') held.add(p);
  return held;
}

/** Connects as the admin and checks it may create and drop databases and users and grant on them. */
export async function checkHost(access: HostAccess): Promise<void> {
  const grants = await withHost(access, async (conn) => {
    try {
      const [rows] = await conn.query<mysql.RowDataPacket[]>('SHOW GRANTS FOR CURRENT_USER()');
      return rows.map((row) => String(Object.values(row)[0]));
    } catch (error) {
      throw hostError(error, "Could not read the account's privileges", [access.password]);
    }
  });
  const held = globalPrivileges(grants);
  const missing = REQUIRED_HOST_PRIVILEGES.filter((p) => !held.has(p));
  if (missing.length > 0) {
    throw new DatabaseHostError(
      `${access.username} on ${access.host}:${access.port} lacks the global privilege${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (it needs ${REQUIRED_HOST_PRIVILEGES.join(', ')} ON *.*).`,
    );
  }
}

export function hostAccess(row: DatabaseHostRow, box: SecretBox): HostAccess {
  const password = box.open(row.password);
  if (password === null) throw new DatabaseHostError(`The password of database host ${row.name} cannot be read with this data dir's key.`);
  return { host: row.host, port: row.port, username: row.username, password };
}

export function hostView(row: DatabaseHostRow, databases = 0): DatabaseHostView {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: row.port,
    username: row.username,
    max_databases: row.max_databases,
    max_connections_per_user: row.max_connections_per_user,
    node_id: row.node_id,
    databases,
  };
}

export interface HostInput extends HostAccess {
  name: string;
  maxDatabases?: number | null;
  /** Left as it is (10 for a new host) when not given. */
  maxConnectionsPerUser?: number;
}

/**
 * Checks the host, then adds it, or updates the one of that name when `replace` is set (the
 * `default` host from PANEL_DB_HOST_URL or the managed MariaDB); otherwise a taken name is refused.
 */
export async function saveHost(db: Db, box: SecretBox, input: HostInput, now: Date, replace = false): Promise<DatabaseHostRow> {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(input.name)) {
    throw new DatabaseHostError('A database host name is 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  const existing = await databaseHosts.findByName(db, input.name);
  if (existing && !replace) throw new DatabaseHostError(`A database host named ${input.name} exists already.`);
  await checkHost(input);
  const values = {
    host: input.host,
    port: input.port,
    username: input.username,
    password: box.seal(input.password),
    updated_at: now.toISOString(),
    ...(input.maxDatabases !== undefined ? { max_databases: input.maxDatabases } : {}),
    ...(input.maxConnectionsPerUser !== undefined ? { max_connections_per_user: input.maxConnectionsPerUser } : {}),
  };
  if (existing) return databaseHosts.update(db, existing.id, values);
  return databaseHosts.insert(db, { ...values, name: input.name, created_at: now.toISOString() });
}

export async function listHosts(db: Db): Promise<DatabaseHostView[]> {
  const counts = await databaseHosts.databaseCounts(db);
  return (await databaseHosts.all(db)).map((row) => hostView(row, counts.get(row.id) ?? 0));
}

export async function deleteHost(db: Db, name: string): Promise<DatabaseHostView> {
  const row = await databaseHosts.findByName(db, name);
  if (!row) throw new DatabaseHostError(`No database host named ${name}.`);
  const count = (await databaseHosts.databaseCounts(db)).get(row.id) ?? 0;
  if (count > 0) throw new DatabaseHostError(`Database host ${name} still holds ${count} database${count > 1 ? 's' : ''}: delete them first.`);
  await databaseHosts.remove(db, row.id);
  return hostView(row);
}

/** `mysql://user:pass@host:port` (PANEL_DB_HOST_URL) as host access; throws a message without the password. */
export function parseHostUrl(url: string): HostAccess {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseHostError('PANEL_DB_HOST_URL must look like mysql://user:password@host:port.');
  }
  if (!['mysql:', 'mariadb:'].includes(parsed.protocol) || !parsed.hostname || !parsed.username) {
    throw new DatabaseHostError('PANEL_DB_HOST_URL must look like mysql://user:password@host:port.');
  }
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : 3306,
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}
