import { sql, type Kysely } from 'kysely';

/*
 * Wings' credentials (issue 24): a node has a 16-character `token_id` besides its token, as the
 * reference panel's `daemon_token_id`; a node calling the panel's remote API says
 * `Bearer <token_id>.<token>`, and the id finds the node. The tokens themselves are sealed at the
 * next start (they need the data dir's key, which migrations do not have).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('nodes')
    .addColumn('daemon_token_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE nodes SET daemon_token_id = lower(hex(randomblob(8))) WHERE daemon_token_id = ''`.execute(db);
  await db.schema.createIndex('nodes_daemon_token_id').unique().on('nodes').column('daemon_token_id').execute();
}
