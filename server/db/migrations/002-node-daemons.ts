import { sql, type Kysely } from 'kysely';

/*
 * Nodes learn where their daemon listens and the key the panel signs its tokens with (signed
 * transfer URLs, websocket tokens). A node without a daemon address is served by the panel itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nodes').addColumn('daemon_base_url', 'text').execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('daemon_token', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE nodes SET daemon_token = lower(hex(randomblob(32))) WHERE daemon_token = ''`.execute(db);
}
