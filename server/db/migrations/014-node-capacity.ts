import type { Kysely } from 'kysely';

/*
 * What an operator says about a node (issue 24 §4), as the reference panel's nodes do: the memory
 * and disk it offers servers (MiB; 0: not said), the ports its allocations take and the address
 * they are made on. Null ports or address: the panel's own defaults (PANEL_ALLOCATION_PORTS,
 * 127.0.0.1), as the panel's own node had before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('nodes')
    .addColumn('memory', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('disk', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('nodes').addColumn('port_start', 'integer').execute();
  await db.schema.alterTable('nodes').addColumn('port_end', 'integer').execute();
  await db.schema.alterTable('nodes').addColumn('allocation_ip', 'text').execute();
  await db.schema.createIndex('nodes_name').unique().on('nodes').column('name').execute();
}
