import type { Kysely } from 'kysely';

/*
 * Password-reset tokens sent by mail: one per user (a new request replaces the old one), stored
 * as the SHA-256 of the token, spent on use, valid for 60 minutes from `created_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
