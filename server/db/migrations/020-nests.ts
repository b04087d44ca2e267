import { sql, type Kysely } from 'kysely';

/*
 * Nests and the rest of the reference panel's egg (issue 25 §2, §3): every egg is in a nest, has an
 * author, a description, a file denylist, config files and logs, an update URL, a privileged flag
 * for its install script, and timestamps; its variables get timestamps too. The eggs there are put
 * in one nest, "Aerie", which new eggs without a nest also go into (its uuid is AERIE_NEST_UUID).
 */

export const AERIE_NEST_UUID = '7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nests')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await sql`insert into nests (uuid, author, name, description, created_at, updated_at) values (${AERIE_NEST_UUID}, 'support@aerie.local', 'Aerie', 'The eggs this panel comes with.', ${now}, ${now})`.execute(
    db,
  );

  const columns: [string, 'text' | 'integer', string | number | null][] = [
    ['author', 'text', 'support@aerie.local'],
    ['description', 'text', null],
    ['file_denylist', 'text', '[]'],
    ['update_url', 'text', null],
    ['config_files', 'text', '{}'],
    ['config_logs', 'text', '{}'],
    ['script_is_privileged', 'integer', 1],
    ['created_at', 'text', ''],
    ['updated_at', 'text', ''],
  ];
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('eggs')
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }
  await db.schema
    .alterTable('eggs')
    .addColumn('nest_id', 'integer', (c) => c.references('nests.id'))
    .execute();
  await sql`update eggs set nest_id = (select id from nests where uuid = ${AERIE_NEST_UUID}), created_at = ${now}, updated_at = ${now}`.execute(db);
  await db.schema.createIndex('eggs_nest').on('eggs').column('nest_id').execute();

  for (const name of ['created_at', 'updated_at']) {
    await db.schema
      .alterTable('egg_variables')
      .addColumn(name, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  await sql`update egg_variables set created_at = ${now}, updated_at = ${now}`.execute(db);
}
