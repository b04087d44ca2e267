import type mysql from 'mysql2/promise';
import { DATABASE_NAME_PATTERN, DATABASE_NAME_RULE, DATABASE_REMOTE_PATTERN, DATABASE_REMOTE_RULE } from '../../src/contract';
import { randomAlnum } from '../lib/crypto';
import { DatabaseHostError, hostError, withHost, type HostAccess } from './database-hosts';

/*
 * What the panel does on a database host for a server's database: create the database and its
 * user (granted everything on that database only, from the given remote), give the user a new
 * password, drop both. Identifiers reach the host only after the strict checks below and then
 * quoted by mysql2 (`??` for names, `?` for strings); nothing a user typed is pasted into SQL.
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

export function realDatabaseName(serverId: number, name: string): string {
  return `s${serverId}_${checkDatabaseName(name)}`;
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
  maxConnections?: number | null;
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
      const limit = options.maxConnections ? ' WITH MAX_USER_CONNECTIONS ?' : '';
      await run(
        conn,
        `CREATE USER ?@? IDENTIFIED BY ?${limit}`,
        [username, remote, password, ...(options.maxConnections ? [options.maxConnections] : [])],
        `Could not create user ${username}`,
        secrets,
      );
      created.user = true;
      await run(
        conn,
        'GRANT ALL PRIVILEGES ON ??.* TO ?@?',
        [database, username, remote],
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
