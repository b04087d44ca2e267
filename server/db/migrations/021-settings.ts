import type { Kysely } from 'kysely';

/*
 * The panel's settings (issue 25 §3): key → value, set from the admin area (panel name, mail,
 * required two-factor). A key that is absent falls back to the environment's default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
