import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/** Opens (creating if needed) `<dataDir>/panel.sqlite`, or an in-memory database for tests. */
export function openDatabase(file: string | ':memory:'): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** An in-memory, migrated database: each test gets its own. */
export async function openTestDatabase(): Promise<Db> {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  return db;
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'panel.sqlite');
}

/**
 * A write transaction that takes SQLite's write lock up front (BEGIN IMMEDIATE). A deferred
 * transaction that reads first fails with "database is locked" when another process (the CLI
 * next to a running panel) wrote in between; an immediate one waits for busy_timeout instead.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(conn);
      throw error;
    }
  });
}

export { migrateToLatest };
