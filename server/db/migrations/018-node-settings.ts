import { sql, type Kysely } from 'kysely';

/*
 * The reference panel's node settings that Aerie's nodes lacked (issue 25 §2), so the application
 * API's `node` carries them and billing modules that set them keep working: visibility to
 * deployment (`public`), a description, a proxy in front of the daemon (no TLS in its config),
 * over-allocation percentages, the upload limit (MiB), the daemon's data directory, and the
 * timestamps. Nodes left without a location (the panel's own node, made after 017 ran) are put in
 * the "default" location, so every node has one as in the reference.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: [string, 'integer' | 'text', number | string | null][] = [
    ['public', 'integer', 1],
    ['description', 'text', null],
    ['behind_proxy', 'integer', 0],
    ['memory_overallocate', 'integer', 0],
    ['disk_overallocate', 'integer', 0],
    ['upload_size', 'integer', 100],
    ['daemon_base', 'text', '/var/lib/pterodactyl/volumes'],
    // Existing rows get the migration's time; every insert sets its own.
    ['created_at', 'text', new Date().toISOString()],
    ['updated_at', 'text', new Date().toISOString()],
  ];
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('nodes')
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }
  const now = new Date().toISOString();
  await sql`insert into locations (short, long, created_at, updated_at) select 'default', 'Nodes from before locations', ${now}, ${now} where exists (select 1 from nodes where location_id is null) and not exists (select 1 from locations where short = 'default')`.execute(
    db,
  );
  await sql`update nodes set location_id = (select id from locations where short = 'default') where location_id is null`.execute(db);
}
