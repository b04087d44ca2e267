import type { Kysely } from 'kysely';

/*
 * Database hosts (MariaDB or MySQL servers the panel creates databases on, with an admin account
 * whose password is sealed with the data dir's secret box) and the databases of servers on them,
 * as the reference panel's `database_hosts` and `databases`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('database_hosts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('max_databases', 'integer')
    .addColumn('node_id', 'integer', (c) => c.references('nodes.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('databases')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    // A host with databases on it cannot be removed (dbhost:delete says so first).
    .addColumn('database_host_id', 'integer', (c) => c.notNull().references('database_hosts.id').onDelete('restrict'))
    .addColumn('database', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('remote', 'text', (c) => c.notNull().defaultTo('%'))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('max_connections', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('databases_host_database', ['database_host_id', 'database'])
    .addUniqueConstraint('databases_host_username', ['database_host_id', 'username'])
    .execute();
  await db.schema.createIndex('databases_server').on('databases').column('server_id').execute();
}
