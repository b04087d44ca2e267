import type mysql from 'mysql2/promise';
import { DATABASE_NAME_PATTERN, DATABASE_NAME_RULE, DATABASE_REMOTE_PATTERN, DATABASE_REMOTE_RULE } from '../../src/contract';
import { randomAlnum } from '../lib/crypto';
import { DatabaseHostError, hostError, withHost, type HostAccess } from './database-hosts';

/*
 * What the panel does on a database host for a server's database: create the database and its
 * user (granted everything on that database only, from the given remote, with at most the host's
 * number of connections at once), give the user a new password, drop both. Identifiers reach the
 * host only after the strict checks below and then quoted by mysql2 (`??` for names, `?` for
 * strings); nothing a user typed is pasted into SQL.
 */

export class InvalidIdentifierError extends Error {
  constructor(
    readonly field: 'database' | 'remote',
    message: string,
  ) {
    super(message);
  }
}

export function checkDatabaseName(name: string): string {
  if (!DATABASE_NAME_PATTERN.test(name)) throw new InvalidIdentifierError('database', DATABASE_NAME_RULE);
  return name;
}

export function checkRemote(remote: string): string {
  if (!DATABASE_REMOTE_PATTERN.test(remote)) throw new InvalidIdentifierError('remote', DATABASE_REMOTE_RULE);
  return remote;
}

/** 1 to 100,000: a user always has a limit of its own (0 would mean none on MariaDB and MySQL). */
export function checkMaxConnections(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new RangeError(`A connection limit is 1 to 100000, not ${n}.`);
  return n;
}

export function realDatabaseName(serverId: number, name: string): string {
  return `s${serverId}_${checkDatabaseName(name)}`;
}

/**
 * The database name as a GRANT takes it: there `_` and `%` are wildcards (MySQL and MariaDB's
 * GRANT statement), so `s7__main` would also grant server 70's `s70_main`. Escaped, the grant
 * names exactly one database.
 */
export function grantPattern(database: string): string {
  return database.replace(/[\\_%]/g, '\\$&');
}

/** A strong password of letters and digits only, so it pastes into any config file or URL as it is. */
export function newDatabasePassword(): string {
  return randomAlnum(32);
}

export interface CreatedDatabase {
  database: string;
  username: string;
  password: string;
  remote: string;
}

export interface CreateOptions {
  serverId: number;
  name: string;
  remote: string;
  /** The user's MAX_USER_CONNECTIONS: so one tenant cannot take every connection of the host. */
  maxConnections: number;
}

async function run(conn: mysql.Connection, statement: string, values: unknown[], what: string, secrets: string[]): Promise<void> {
  try {
    await conn.query(statement, values);
  } catch (error) {
    throw hostError(error, what, secrets);
  }
}

/**
 * Creates the database and its user and grants it all on that database from `remote`. All or
 * nothing: when a step fails, what this call created is dropped again (on a new connection when
 * the first one is gone) before the error is thrown.
 */
export async function createDatabaseOnHost(access: HostAccess, options: CreateOptions): Promise<CreatedDatabase> {
  const database = realDatabaseName(options.serverId, options.name);
  const remote = checkRemote(options.remote);
  const username = `u${options.serverId}_${randomAlnum(10)}`;
  const password = newDatabasePassword();
  const secrets = [password, access.password];
  const created = { database: false, user: false };
  try {
    await withHost(access, async (conn) => {
      await run(conn, 'CREATE DATABASE ??', [database], `Could not create database ${database}`, secrets);
      created.database = true;
      await run(
        conn,
        'CREATE USER ?@? IDENTIFIED BY ? WITH MAX_USER_CONNECTIONS ?',
        [username, remote, password, checkMaxConnections(options.maxConnections)],
        `Could not create user ${username}`,
        secrets,
      );
      created.user = true;
      await run(
        conn,
        'GRANT ALL PRIVILEGES ON ??.* TO ?@?',
        [grantPattern(database), username, remote],
        `Could not grant ${username} access to ${database}`,
        secrets,
      );
    });
  } catch (error) {
    if (created.database || created.user) await undoCreate(access, database, created.user ? { username, remote } : undefined);
    throw error instanceof DatabaseHostError ? error : hostError(error, `Could not create database ${database}`, secrets);
  }
  return { database, username, password, remote };
}

async function undoCreate(access: HostAccess, database: string, user: { username: string; remote: string } | undefined): Promise<void> {
  try {
    await withHost(access, async (conn) => {
      if (user) await conn.query('DROP USER IF EXISTS ?@?', [user.username, user.remote]);
      await conn.query('DROP DATABASE IF EXISTS ??', [database]);
    });
  } catch {
    // The host is gone: nothing is recorded either way, and the first error is the one to report.
  }
}

/** Gives the user a new password at once; the old one stops working. */
export async function rotatePasswordOnHost(access: HostAccess, user: { username: string; remote: string }): Promise<string> {
  const password = newDatabasePassword();
  await withHost(access, (conn) =>
    run(conn, 'ALTER USER ?@? IDENTIFIED BY ?', [user.username, user.remote, password], `Could not change the password of ${user.username}`, [
      password,
      access.password,
    ]),
  );
  return password;
}

/** Drops the database and its user; either may be gone already. */
export async function dropDatabaseOnHost(access: HostAccess, target: { database: string; username: string; remote: string }): Promise<void> {
  await withHost(access, async (conn) => {
    await run(conn, 'DROP DATABASE IF EXISTS ??', [target.database], `Could not drop database ${target.database}`, [access.password]);
    await run(conn, 'DROP USER IF EXISTS ?@?', [target.username, target.remote], `Could not drop user ${target.username}`, [access.password]);
  });
}

export interface GrantTarget {
  database: string;
  username: string;
  remote: string;
  maxConnections: number;
}

const codeOf = (error: unknown) => (error as { code?: unknown }).code;

/**
 * Brings a user made by an older panel to what a new one gets, on an open admin connection: its
 * connection limit, its grant on the raw (wildcard) name revoked and the escaped one granted. Each
 * step holds when run again. 'gone' when the user no longer exists on the host (nothing to reach
 * anything with, so nothing to repair).
 */
export async function repairGrantOnHost(conn: mysql.Connection, target: GrantTarget, secrets: string[]): Promise<'repaired' | 'gone'> {
  const who = [target.username, target.remote];
  try {
    await conn.query('ALTER USER ?@? WITH MAX_USER_CONNECTIONS ?', [...who, checkMaxConnections(target.maxConnections)]);
  } catch (error) {
    if (codeOf(error) === 'ER_CANNOT_USER') return 'gone';
    throw hostError(error, `Could not limit the connections of ${target.username}`, secrets);
  }
  try {
    await conn.query('REVOKE ALL PRIVILEGES ON ??.* FROM ?@?', [target.database, ...who]);
  } catch (error) {
    // Repaired before, or never granted: there is no wildcard grant to take back.
    if (codeOf(error) !== 'ER_NONEXISTING_GRANT') throw hostError(error, `Could not revoke the grant of ${target.username}`, secrets);
  }
  await run(
    conn,
    'GRANT ALL PRIVILEGES ON ??.* TO ?@?',
    [grantPattern(target.database), ...who],
    `Could not grant ${target.username} access to ${target.database}`,
    secrets,
  );
  return 'repaired';
}
