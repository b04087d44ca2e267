import type { Kysely } from 'kysely';

/*
 * Server transfers (issue 24 §4), as the reference panel's `server_transfers`: the nodes and
 * allocations before and after, reserved on the target when the transfer starts. `successful` is
 * null while it runs, then 0 or 1; `reason` says why one failed (shown to the admin).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_transfers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('old_node', 'integer', (c) => c.notNull())
    .addColumn('new_node', 'integer', (c) => c.notNull())
    .addColumn('old_allocation', 'integer', (c) => c.notNull())
    .addColumn('new_allocation', 'integer', (c) => c.notNull())
    .addColumn('old_additional_allocations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('new_additional_allocations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('successful', 'integer')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('server_transfers_server').on('server_transfers').columns(['server_id', 'successful']).execute();
}
