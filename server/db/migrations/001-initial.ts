import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<unknown>: they describe the schema as it was then, not as it is now.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name_first', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name_last', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('root_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('use_totp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_secret', 'text')
    .addColumn('totp_last_step', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // E-mail addresses are unique case-insensitively.
  await sql`CREATE UNIQUE INDEX users_email_nocase ON users (email COLLATE NOCASE)`.execute(db);

  await db.schema
    .createTable('recovery_tokens')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_active_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('identifier', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fqdn', 'text', (c) => c.notNull())
    .addColumn('sftp_port', 'integer', (c) => c.notNull().defaultTo(2022))
    .addColumn('maintenance_mode', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('eggs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('startup', 'text', (c) => c.notNull())
    .addColumn('docker_images', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('egg_variables')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('egg_id', 'integer', (c) => c.notNull().references('eggs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('env_variable', 'text', (c) => c.notNull())
    .addColumn('default_value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_viewable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('user_editable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('servers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('uuid_short', 'text', (c) => c.notNull().unique())
    .addColumn('external_id', 'text', (c) => c.unique())
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('egg_id', 'integer', (c) => c.notNull().references('eggs.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text')
    .addColumn('is_transferring', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('memory', 'integer', (c) => c.notNull())
    .addColumn('swap', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disk', 'integer', (c) => c.notNull())
    .addColumn('io', 'integer', (c) => c.notNull().defaultTo(500))
    .addColumn('cpu', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('threads', 'text')
    .addColumn('oom_disabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allocation_id', 'integer')
    .addColumn('startup', 'text', (c) => c.notNull())
    .addColumn('docker_image', 'text', (c) => c.notNull())
    .addColumn('database_limit', 'integer')
    .addColumn('allocation_limit', 'integer')
    .addColumn('backup_limit', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_owner').on('servers').column('owner_id').execute();

  await db.schema
    .createTable('server_variables')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('variable_id', 'integer', (c) => c.notNull().references('egg_variables.id').onDelete('cascade'))
    .addColumn('variable_value', 'text', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('server_variables_unique', ['server_id', 'variable_id'])
    .execute();

  await db.schema
    .createTable('allocations')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id'))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('ip_alias', 'text')
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
    .addColumn('notes', 'text')
    .addUniqueConstraint('allocations_unique', ['node_id', 'ip', 'port'])
    .execute();
  await db.schema.createIndex('allocations_server').on('allocations').column('server_id').execute();

  await db.schema
    .createTable('subusers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('subusers_unique', ['user_id', 'server_id'])
    .execute();
  await db.schema.createIndex('subusers_server').on('subusers').column('server_id').execute();

  await db.schema
    .createTable('activity_logs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('batch', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('api_key_id', 'integer')
    .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('activity_subjects')
    .addColumn('activity_log_id', 'integer', (c) => c.notNull().references('activity_logs.id').onDelete('cascade'))
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_subjects_subject')
    .on('activity_subjects')
    .columns(['subject_type', 'subject_id', 'activity_log_id'])
    .execute();
}
