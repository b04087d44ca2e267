import * as z from 'zod/mini';
import { item, list, nullResourceSchema, optionalListMetaSchema, paginatedMetaSchema } from './envelope';

/*
 * Resources of spec §2. Our server emits exactly the spec's fields and types; where a real
 * Pterodactyl panel sends null for a string (pterodactyl-facts §2, §4, §7) the schema accepts null
 * too, so the SPA works in front of either.
 */

const timestamp = z.string().check(z.minLength(1));
const nullableString = z.nullable(z.string());
const nullableInt = z.nullable(z.int());

// §2.3
export const allocationAttributes = z.object({
  id: z.int(),
  ip: z.string(),
  ip_alias: nullableString,
  port: z.int(),
  notes: nullableString,
  is_default: z.boolean(),
});
export const allocationSchema = item('allocation', allocationAttributes);
export type Allocation = z.infer<typeof allocationAttributes>;
export const allocationListSchema = list(allocationSchema, optionalListMetaSchema);

// §2.4
export const eggVariableAttributes = z.object({
  name: z.string(),
  description: z.string(),
  env_variable: z.string(),
  default_value: z.string(),
  server_value: nullableString,
  is_editable: z.boolean(),
  rules: z.string(),
});
export const eggVariableSchema = z.extend(item('egg_variable', eggVariableAttributes), {
  meta: z.optional(z.object({ startup_command: z.string(), raw_startup_command: z.string() })),
});
export type EggVariable = z.infer<typeof eggVariableAttributes>;

export const variablesListMetaSchema = z.object({
  startup_command: z.optional(z.string()),
  docker_images: z.optional(z.record(z.string(), z.string())),
  raw_startup_command: z.optional(z.string()),
});
export const eggVariableListSchema = list(eggVariableSchema, z.optional(variablesListMetaSchema));

// §2.2
export const serverLimitsSchema = z.object({
  memory: z.int(),
  swap: z.int(),
  disk: z.int(),
  io: z.int(),
  cpu: z.int(),
  threads: nullableString,
  oom_disabled: z.boolean(),
});

export const serverAttributes = z.object({
  server_owner: z.boolean(),
  identifier: z.string(),
  // The spec's two deprecated duplicates; a real panel omits them.
  __deprecated_uuid_short: z.optional(z.string()),
  server_identifier: z.optional(z.string()),
  internal_id: z.int(),
  uuid: z.uuid(),
  name: z.string(),
  node: z.string(),
  is_node_under_maintenance: z.boolean(),
  sftp_details: z.object({ ip: z.string(), port: z.int() }),
  description: nullableString,
  limits: serverLimitsSchema,
  invocation: z.string(),
  docker_image: z.string(),
  egg_features: z.nullable(z.array(z.string())),
  feature_limits: z.object({ databases: nullableInt, allocations: nullableInt, backups: nullableInt }),
  status: nullableString,
  is_suspended: z.boolean(),
  is_installing: z.boolean(),
  is_transferring: z.boolean(),
  relationships: z.object({
    allocations: allocationListSchema,
    variables: z.union([eggVariableListSchema, nullResourceSchema]),
  }),
});
export type Server = z.infer<typeof serverAttributes>;

export const serverSchema = item('server', serverAttributes);
export const serverMetaSchema = z.object({ is_server_owner: z.boolean(), user_permissions: z.array(z.string()) });
export const serverWithMetaSchema = z.extend(serverSchema, { meta: serverMetaSchema });
export const serverListSchema = list(serverSchema, paginatedMetaSchema);

/** Values of `server.status` (pterodactyl-facts A2); null is normal. */
export const SERVER_STATUSES = ['installing', 'install_failed', 'reinstall_failed', 'suspended', 'restoring_backup'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

// §2.5
export const subuserAttributes = z.object({
  uuid: z.uuid(),
  identifier: z.optional(z.string()),
  username: z.string(),
  email: z.string(),
  image: z.string(),
  '2fa_enabled': z.boolean(),
  created_at: timestamp,
  permissions: z.array(z.string()),
});
export const subuserSchema = item('server_subuser', subuserAttributes);
export type Subuser = z.infer<typeof subuserAttributes>;
export const subuserListSchema = list(subuserSchema, optionalListMetaSchema);

// §2.6
export const fileObjectAttributes = z.object({
  name: z.string(),
  mode: z.string(),
  mode_bits: z.string(),
  size: z.int(),
  is_file: z.boolean(),
  is_symlink: z.boolean(),
  mimetype: z.string(),
  created_at: timestamp,
  modified_at: timestamp,
});
export const fileObjectSchema = item('file_object', fileObjectAttributes);
export type FileObject = z.infer<typeof fileObjectAttributes>;
export const fileListSchema = list(fileObjectSchema, optionalListMetaSchema);

// §2.7
export const backupAttributes = z.object({
  uuid: z.uuid(),
  is_successful: z.boolean(),
  is_locked: z.boolean(),
  name: z.string(),
  ignored_files: z.array(z.string()),
  checksum: nullableString,
  bytes: z.int(),
  created_at: timestamp,
  completed_at: z.nullable(timestamp),
});
export const backupSchema = item('backup', backupAttributes);
export type Backup = z.infer<typeof backupAttributes>;
export const backupListSchema = list(backupSchema, z.extend(paginatedMetaSchema, { backup_count: z.optional(z.int()) }));

// §2.8: the embedded user of an activity entry.
export const activityActorAttributes = z.object({
  id: z.optional(z.int()),
  uuid: z.optional(z.string()),
  admin: z.optional(z.boolean()),
  username: z.string(),
  email: z.string(),
  first_name: z.optional(z.string()),
  last_name: z.optional(z.string()),
  language: z.optional(z.string()),
  image: z.optional(z.string()),
});
export const userSchema = item('user', activityActorAttributes);

export const activityLogAttributes = z.object({
  id: z.string(),
  batch: nullableString,
  event: z.string().check(z.regex(/^[a-z_-]+:[a-z0-9_.-]+$/i)),
  is_api: z.boolean(),
  ip: nullableString,
  description: nullableString,
  properties: z.record(z.string(), z.unknown()),
  has_additional_metadata: z.boolean(),
  timestamp,
  relationships: z.optional(z.object({ actor: z.union([userSchema, nullResourceSchema]) })),
});
export const activityLogSchema = item('activity_log', activityLogAttributes);
export type ActivityLog = z.infer<typeof activityLogAttributes>;
export const activityLogListSchema = list(activityLogSchema, paginatedMetaSchema);

// §2.9
export const databasePasswordSchema = item('database_password', z.object({ password: z.string() }));
export const serverDatabaseAttributes = z.object({
  id: z.string(),
  host: z.object({ address: z.string(), port: z.int() }),
  name: z.string(),
  username: z.string(),
  connections_from: z.string(),
  max_connections: nullableInt,
  relationships: z.optional(z.object({ password: z.union([databasePasswordSchema, nullResourceSchema]) })),
});
export const serverDatabaseSchema = item('server_database', serverDatabaseAttributes);
export type ServerDatabase = z.infer<typeof serverDatabaseAttributes>;
export const serverDatabaseListSchema = list(serverDatabaseSchema, optionalListMetaSchema);

// §2.11 leaves SSH keys open; these are the reference panel's fields (pterodactyl-facts §9.2).
export const sshKeyAttributes = z.object({ name: z.string(), fingerprint: z.string(), public_key: z.string(), created_at: timestamp });
export const sshKeySchema = item('ssh_key', sshKeyAttributes);
export type SshKey = z.infer<typeof sshKeyAttributes>;
export const sshKeyListSchema = list(sshKeySchema, optionalListMetaSchema);

// GET /api/client/account (pterodactyl-facts §9.2).
export const accountAttributes = z.object({
  id: z.int(),
  admin: z.boolean(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: z.string(),
});
export const accountSchema = item('user', accountAttributes);
export type Account = z.infer<typeof accountAttributes>;

// GET /api/client/permissions
export const systemPermissionsSchema = z.object({
  object: z.literal('system_permissions'),
  attributes: z.object({
    permissions: z.record(z.string(), z.object({ description: z.string(), keys: z.record(z.string(), z.string()) })),
  }),
});
