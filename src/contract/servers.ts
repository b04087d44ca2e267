import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';
import { filterText, nullableInt, nullableString, pageNumber, perPage, text } from './fields';
import { allocationListSchema } from './network';
import { dockerImageSchema, eggVariableListSchema } from './startup';

// The server resource.
export const serverLimitsSchema = z.object({
  memory: z.int(),
  swap: z.int(),
  disk: z.int(),
  io: z.int(),
  cpu: z.int(),
  // A string (a comma-separated CPU list, '' when unset); a real panel may send null.
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
  // Aerie's own, sent to root admins only: the owner, which the client API does not name. A real
  // panel never sends it, so the SPA shows it only when present.
  aerie_owner: z.optional(z.object({ username: z.string(), email: z.string() })),
  // Aerie's own, sent to root admins only on one server's page, for a server on a remote node:
  // whether the node answered the panel's last health check (every 30 s), its daemon's version
  // and when it last answered. A real panel never sends it.
  aerie_node_health: z.optional(
    z.object({
      reachable: z.boolean(),
      version: z.nullable(z.string()),
      last_seen: z.nullable(z.string()),
      checked_at: z.string(),
      reason: z.nullable(z.string()),
    }),
  ),
  // Aerie's own, for servers on the panel's own node, which runs the startup command in a sandbox
  // with the host's programs and does not run container images yet (issue 27): what the server
  // really runs with, so pages do not promise what the image says.
  aerie_runtime: z.optional(
    z.object({
      /** The program the startup command runs (its first word), e.g. `java`. */
      program: z.string(),
      /** Where the host has that program, or null when it has none (the server cannot start). */
      program_path: z.nullable(z.string()),
      /** Whether installing lays out the server's files; false: the user must upload them. */
      installs_files: z.boolean(),
    }),
  ),
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

/** Values of `server.status`; null is normal. While any is set, most actions answer 409. */
export const SERVER_STATUSES = ['installing', 'install_failed', 'reinstall_failed', 'suspended', 'restoring_backup'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

// The server list: default 50, maximum 100.
export const SERVER_LIST_FILTERS = ['filter[uuid]', 'filter[name]', 'filter[description]', 'filter[external_id]', 'filter[*]'] as const;
export const serverListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  type: z.optional(z.enum(['owner', 'admin', 'admin-all'])),
  'filter[uuid]': filterText,
  'filter[name]': filterText,
  'filter[description]': filterText,
  'filter[external_id]': filterText,
  'filter[*]': filterText,
});
export type ServerListQuery = z.infer<typeof serverListQuerySchema>;

// Renaming (name 1-191 as the reference panel; an absent description is left unchanged)
export const renameServerSchema = z.object({
  name: text('The name field is required.').check(
    z.trim(),
    z.minLength(1, 'The name field is required.'),
    z.maxLength(191, 'The name may not be greater than 191 characters.'),
  ),
  description: z.optional(z.nullable(z.string().check(z.maxLength(2000, 'The description may not be greater than 2000 characters.')))),
});
export type RenameServer = z.infer<typeof renameServerSchema>;

export const serverEndpoints = {
  /** The servers the caller can reach. */
  list: endpoint({ method: 'GET', path: '/api/client', query: serverListQuerySchema, response: serverListSchema }),
  /** One server with the caller's permissions; answers in every server state. */
  detail: endpoint({ method: 'GET', path: '/api/client/servers/:server', response: serverWithMetaSchema, permission: null, anyState: true }),
};

/** A server's settings (reference panel): its name and description, its container image. */
export const settingsEndpoints = {
  rename: endpoint({
    method: 'POST',
    path: '/api/client/servers/:server/settings/rename',
    body: renameServerSchema,
    response: 'empty',
    permission: 'settings.rename',
  }),
  /** Only one of the egg's images; applies on the next start. */
  dockerImage: endpoint({
    method: 'PUT',
    path: '/api/client/servers/:server/settings/docker-image',
    body: dockerImageSchema,
    response: 'empty',
    permission: 'startup.docker-image',
  }),
  /** Stops the server and runs its egg's install script again; the status is `installing` meanwhile. */
  reinstall: endpoint({
    method: 'POST',
    path: '/api/client/servers/:server/settings/reinstall',
    response: 'empty',
    permission: 'settings.reinstall',
  }),
};
