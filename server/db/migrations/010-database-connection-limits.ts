import { sql, type Kysely } from 'kysely';

/*
 * Issue 21 #1. Each database host gets the connection limit its databases' users get
 * (`max_connections_per_user`, 10 unless the operator says otherwise), so one tenant cannot take
 * every connection of the host; a database's `max_connections` is then always a number, filled
 * for existing rows from their host. Users made before were granted on the raw database name,
 * where `_` and `%` are wildcards: every host holding databases is marked `grants_need_repair`; the
 * panel repairs its users on the host (database-grants.ts) and clears the mark.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('database_hosts')
    .addColumn('max_connections_per_user', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema
    .alterTable('database_hosts')
    .addColumn('grants_need_repair', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE database_hosts SET grants_need_repair = 1 WHERE id IN (SELECT database_host_id FROM databases)`.execute(db);

  // SQLite cannot make a column NOT NULL in place: the table is made again, as 007 made it.
  await db.schema
    .createTable('databases_new')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('database_host_id', 'integer', (c) => c.notNull().references('database_hosts.id').onDelete('restrict'))
    .addColumn('database', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('remote', 'text', (c) => c.notNull().defaultTo('%'))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('max_connections', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('databases_host_database', ['database_host_id', 'database'])
    .addUniqueConstraint('databases_host_username', ['database_host_id', 'username'])
    .execute();
  await sql`
    INSERT INTO databases_new (id, server_id, database_host_id, database, username, remote, password, max_connections, created_at, updated_at)
    SELECT d.id, d.server_id, d.database_host_id, d.database, d.username, d.remote, d.password,
           COALESCE(d.max_connections, h.max_connections_per_user), d.created_at, d.updated_at
    FROM databases d JOIN database_hosts h ON h.id = d.database_host_id`.execute(db);
  await db.schema.dropTable('databases').execute();
  await sql`ALTER TABLE databases_new RENAME TO databases`.execute(db);
  await db.schema.createIndex('databases_server').on('databases').column('server_id').execute();
}
