import type { Kysely } from 'kysely';

/*
 * The account SSH keys SFTP will accept, as the reference panel's `user_ssh_keys`: the key stored
 * as PKCS#8 PEM with its SHA-256 fingerprint, one fingerprint per user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_ssh_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('user_ssh_keys_user_fingerprint', ['user_id', 'fingerprint'])
    .execute();
}
