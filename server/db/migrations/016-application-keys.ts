import type { Kysely } from 'kysely';

/*
 * Application API keys (issue 25 §2) beside the client ones, as the reference panel keeps both in
 * one table: `key_type` says which (`account` keys reach only the client API, `application` keys
 * only the application API), and an application key's `permissions` are its grants per resource
 * as JSON (`{"users": 3, ...}`: 1 read, 2 write, 3 both; a resource not named is none). And the
 * `external_id` a billing system gives a user (the reference's, unique when set).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('key_type', 'text', (c) => c.notNull().defaultTo('account'))
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
  await db.schema.createIndex('users_external_id').unique().on('users').column('external_id').execute();
}
