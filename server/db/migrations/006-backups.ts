import type { Kysely } from 'kysely';

/*
 * Backups, as the reference panel keeps them: one row per archive on the server's node, soft
 * deleted (the throttle still counts deleted ones). `completed_at` null means still running;
 * `is_successful` tells a finished backup from a failed one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backups')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ignored_files', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('disk', 'text', (c) => c.notNull().defaultTo('local'))
    .addColumn('checksum', 'text')
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_successful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('backups_server').on('backups').columns(['server_id', 'created_at']).execute();
}
