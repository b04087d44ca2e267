import { sql, type Kysely } from 'kysely';

/*
 * Servers were created with `oom_disabled = 1`, which turned their memory limit's watchdog off
 * without anyone choosing it (there is no control for it yet): a 128 MiB server held 2 GiB
 * (issue 21). The reference creates servers with the limit enforced; so do new servers now, and
 * this turns it on for those made before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE servers SET oom_disabled = 0`.execute(db);
}
