import type { Kysely } from 'kysely';

/*
 * The account's colour theme (issue 26 §2, Aerie's addition): light, dark or `system`, which
 * follows the browser's `prefers-color-scheme`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('system'))
    .execute();
}
