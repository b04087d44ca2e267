import type { Kysely } from 'kysely';

/*
 * The reference's `servers.skip_scripts` (issue 25 §2): a server made or changed through the
 * application API with `skip_scripts` installs without its egg's script (the node gets none).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('servers')
    .addColumn('skip_scripts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
