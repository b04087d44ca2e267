import { sql, type Kysely } from 'kysely';

/*
 * Locations (issue 25 §2), the reference panel's: a short code and a description that group
 * nodes, which the application API's `deploy.locations` picks among. Every node has one, as in the
 * reference; the nodes there are put in a first location, "default".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('locations')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('short', 'text', (c) => c.notNull().unique())
    .addColumn('long', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('nodes')
    .addColumn('location_id', 'integer', (c) => c.references('locations.id'))
    .execute();
  const now = new Date().toISOString();
  await sql`insert into locations (short, long, created_at, updated_at) select 'default', 'Nodes from before locations', ${now}, ${now} where exists (select 1 from nodes)`.execute(
    db,
  );
  await sql`update nodes set location_id = (select id from locations where short = 'default') where location_id is null`.execute(db);
}
