import type { Kysely } from 'kysely';

/*
 * Old activity is pruned by age: the timestamp index finds the old entries, and the index by log
 * id lets each deleted entry's subjects go (the foreign key cascades) without a scan of all subjects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('activity_logs_timestamp').on('activity_logs').column('timestamp').execute();
  await db.schema.createIndex('activity_subjects_log').on('activity_subjects').column('activity_log_id').execute();
}
