import { z } from 'zod';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';

/*
 * Resources of spec §2. Our server emits exactly the spec's fields and types; where a real
 * Pterodactyl panel sends null for a string (pterodactyl-facts §2, §4, §7) the schema accepts null
 * too, so the SPA works in front of either.
 */

const timestamp = z.string().min(1);

// §2.3
export const allocationAttributes = z.object({
  id: z.number().int(),
  ip: z.string(),
  ip_alias: z.string().nullable(),
  port: z.number().int(),
  notes: z.string().nullable(),
  is_default: z.boolean(),
});
export const allocationSchema = item('allocation', allocationAttributes);
export type Allocation = z.infer<typeof allocationAttributes>;
export const allocationListSchema = list(allocationSchema);

// §2.4
export const eggVariableAttributes = z.object({
  name: z.string(),
  description: z.string(),
  env_variable: z.string(),
  default_value: z.string(),
  server_value: z.string().nullable(),
  is_editable: z.boolean(),
  rules: z.string(),
});
export const eggVariableSchema = item('egg_variable', eggVariableAttributes).extend({
  meta: z.object({ startup_command: z.string(), raw_startup_command: z.string() }).optional(),
});
export type EggVariable = z.infer<typeof eggVariableAttributes>;

export const variablesListMetaSchema = z
  .object({
    startup_command: z.string(),
    docker_images: z.record(z.string(), z.string()),
    raw_startup_command: z.string(),
  })
  .partial();
export const eggVariableListSchema = list(eggVariableSchema, variablesListMetaSchema.optional());

// §2.2
export const serverLimitsSchema = z.object({
  memory: z.number().int(),
  swap: z.number().int(),
  disk: z.number().int(),
  io: z.number().int(),
  cpu: z.number().int(),
  threads: z.string().nullable(),
  oom_disabled: z.boolean(),
});

export const serverAttributes = z.object({
  server_owner: z.boolean(),
  identifier: z.string(),
  // The spec's two deprecated duplicates; a real panel omits them.
  __deprecated_uuid_short: z.string().optional(),
  server_identifier: z.string().optional(),
  internal_id: z.number().int(),
  uuid: z.uuid(),
  name: z.string(),
  node: z.string(),
  is_node_under_maintenance: z.boolean(),
  sftp_details: z.object({ ip: z.string(), port: z.number().int() }),
  description: z.string().nullable(),
  limits: serverLimitsSchema,
  invocation: z.string(),
  docker_image: z.string(),
  egg_features: z.array(z.string()).nullable(),
  feature_limits: z.object({
    databases: z.number().int().nullable(),
    allocations: z.number().int().nullable(),
    backups: z.number().int().nullable(),
  }),
  status: z.string().nullable(),
  is_suspended: z.boolean(),
  is_installing: z.boolean(),
  is_transferring: z.boolean(),
  relationships: z.object({
    allocations: allocationListSchema,
    variables: eggVariableListSchema.or(nullResourceSchema),
  }),
});
export type Server = z.infer<typeof serverAttributes>;

export const serverSchema = item('server', serverAttributes);
export const serverMetaSchema = z.object({
  is_server_owner: z.boolean(),
  user_permissions: z.array(z.string()),
});
export const serverWithMetaSchema = serverSchema.extend({ meta: serverMetaSchema });
export const serverListSchema = list(serverSchema, paginatedMetaSchema);

/** Values of `server.status` (pterodactyl-facts A2); null is normal. */
export const SERVER_STATUSES = ['installing', 'install_failed', 'reinstall_failed', 'suspended', 'restoring_backup'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

// §2.5
export const subuserAttributes = z.object({
  uuid: z.uuid(),
  identifier: z.string().optional(),
  username: z.string(),
  email: z.string(),
  image: z.string(),
  '2fa_enabled': z.boolean(),
  created_at: timestamp,
  permissions: z.array(z.string()),
});
export const subuserSchema = item('server_subuser', subuserAttributes);
export type Subuser = z.infer<typeof subuserAttributes>;
export const subuserListSchema = list(subuserSchema);

// §2.6
export const fileObjectAttributes = z.object({
  name: z.string(),
  mode: z.string(),
  mode_bits: z.string(),
  size: z.number().int(),
  is_file: z.boolean(),
  is_symlink: z.boolean(),
  mimetype: z.string(),
  created_at: timestamp,
  modified_at: timestamp,
});
export const fileObjectSchema = item('file_object', fileObjectAttributes);
export type FileObject = z.infer<typeof fileObjectAttributes>;
export const fileListSchema = list(fileObjectSchema);

// §2.7
export const backupAttributes = z.object({
  uuid: z.uuid(),
  is_successful: z.boolean(),
  is_locked: z.boolean(),
  name: z.string(),
  ignored_files: z.array(z.string()),
  checksum: z.string().nullable(),
  bytes: z.number().int(),
  created_at: timestamp,
  completed_at: timestamp.nullable(),
});
export const backupSchema = item('backup', backupAttributes);
export type Backup = z.infer<typeof backupAttributes>;
export const backupListSchema = list(
  backupSchema,
  paginatedMetaSchema.extend({ backup_count: z.number().int().optional() }),
);

// §2.8: the embedded user of an activity entry.
export const activityActorAttributes = z.object({
  id: z.number().int().optional(),
  uuid: z.string().optional(),
  admin: z.boolean().optional(),
  username: z.string(),
  email: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  language: z.string().optional(),
  image: z.string().optional(),
});
export const userSchema = item('user', activityActorAttributes);

export const activityLogAttributes = z.object({
  id: z.string(),
  batch: z.string().nullable(),
  event: z.string().regex(/^[a-z_-]+:[a-z0-9_.-]+$/i),
  is_api: z.boolean(),
  ip: z.string().nullable(),
  description: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()),
  has_additional_metadata: z.boolean(),
  timestamp,
  relationships: z.object({ actor: userSchema.or(nullResourceSchema) }).optional(),
});
export const activityLogSchema = item('activity_log', activityLogAttributes);
export type ActivityLog = z.infer<typeof activityLogAttributes>;
export const activityLogListSchema = list(activityLogSchema, paginatedMetaSchema);

// §2.9
export const databasePasswordSchema = item('database_password', z.object({ password: z.string() }));
export const serverDatabaseAttributes = z.object({
  id: z.string(),
  host: z.object({ address: z.string(), port: z.number().int() }),
  name: z.string(),
  username: z.string(),
  connections_from: z.string(),
  max_connections: z.number().int().nullable(),
  relationships: z.object({ password: databasePasswordSchema.or(nullResourceSchema) }).optional(),
});
export const serverDatabaseSchema = item('server_database', serverDatabaseAttributes);
export type ServerDatabase = z.infer<typeof serverDatabaseAttributes>;
export const serverDatabaseListSchema = list(serverDatabaseSchema);

// §2.11 leaves SSH keys open; these are the reference panel's fields (pterodactyl-facts §9.2).
export const sshKeyAttributes = z.object({
  name: z.string(),
  fingerprint: z.string(),
  public_key: z.string(),
  created_at: timestamp,
});
export const sshKeySchema = item('ssh_key', sshKeyAttributes);
export type SshKey = z.infer<typeof sshKeyAttributes>;
export const sshKeyListSchema = list(sshKeySchema);

// GET /api/client/account (pterodactyl-facts §9.2).
export const accountAttributes = z.object({
  id: z.number().int(),
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
    permissions: z.record(
      z.string(),
      z.object({ description: z.string(), keys: z.record(z.string(), z.string()) }),
    ),
  }),
});
