import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, optionalListMetaSchema, paginatedMetaSchema } from './envelope';
import { filterText, nullableInt, nullableString, pageNumber, perPage, timestamp } from './fields';
import { includeField, includeQuerySchema, relationshipsSchema } from './locations';

/*
 * Nodes and their allocations, as the application API shows them (the reference panel's `node`
 * and `allocation` resources, `/api/application/nodes`). A server's own allocations, as its owner
 * sees them, are `network.ts`'s.
 */

export const nodeAttributes = z.object({
  id: z.int(),
  uuid: z.string(),
  public: z.boolean(),
  name: z.string(),
  description: nullableString,
  location_id: nullableInt,
  fqdn: z.string(),
  scheme: z.string(),
  behind_proxy: z.boolean(),
  maintenance_mode: z.boolean(),
  memory: z.int(),
  memory_overallocate: z.int(),
  disk: z.int(),
  disk_overallocate: z.int(),
  upload_size: z.int(),
  daemon_listen: z.int(),
  daemon_sftp: z.int(),
  daemon_base: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  /** MiB given to the servers on the node, summed. */
  allocated_resources: z.object({ memory: z.int(), disk: z.int() }),
  relationships: relationshipsSchema,
});
export type Node = z.infer<typeof nodeAttributes>;
export const nodeSchema = item('node', nodeAttributes);
export const nodeListSchema = list(nodeSchema, paginatedMetaSchema);
/** The deployable nodes: paged when `page` is sent, as the reference. */
export const deployableNodeListSchema = list(nodeSchema, optionalListMetaSchema);
export const createdNodeSchema = z.object({ object: z.literal('node'), attributes: nodeAttributes, meta: z.object({ resource: z.string() }) });

export const nodeAllocationAttributes = z.object({
  id: z.int(),
  ip: z.string(),
  alias: nullableString,
  port: z.int(),
  notes: nullableString,
  assigned: z.boolean(),
  relationships: relationshipsSchema,
});
export type NodeAllocation = z.infer<typeof nodeAllocationAttributes>;
export const nodeAllocationSchema = item('allocation', nodeAllocationAttributes);
export const nodeAllocationListSchema = list(nodeAllocationSchema, paginatedMetaSchema);

/** The node's Wings configuration (`config.yml` as JSON), what `node:config` prints as YAML. */
export const nodeConfigurationSchema = z.looseObject({
  uuid: z.string(),
  token_id: z.string(),
  token: z.string(),
  api: z.looseObject({ port: z.int() }),
  system: z.looseObject({}),
  remote: z.string(),
});

export const NODE_SORTS = ['id', '-id', 'uuid', '-uuid', 'memory', '-memory', 'disk', '-disk'] as const;
export const nodeListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[uuid]': filterText,
  'filter[name]': filterText,
  'filter[fqdn]': filterText,
  'filter[daemon_token_id]': filterText,
  sort: z.optional(z.enum(NODE_SORTS, { error: 'The sort must be one of id, uuid, memory, disk (with - for descending).' })),
  include: includeField,
});

const mib = (field: string, min: number) =>
  z
    .int({ error: `The ${field} must be an integer.` })
    .check(z.gte(min, `The ${field} must be at least ${min}.`), z.lte(2_000_000_000, `The ${field} is too large.`));
const count = (field: string) =>
  z.coerce
    .number({ error: `The ${field} must be an integer.` })
    .check(
      z.int(`The ${field} must be an integer.`),
      z.gte(0, `The ${field} must be at least 0.`),
      z.lte(2_000_000_000, `The ${field} is too large.`),
    );
const port = (field: string) =>
  z
    .int({ error: `The ${field} must be an integer.` })
    .check(z.gte(1, `The ${field} must be between 1 and 65535.`), z.lte(65535, `The ${field} must be between 1 and 65535.`));
/** Laravel's `boolean`: true, false, 1, 0 (and their strings). */
const flag = (field: string) =>
  z.pipe(
    z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: `The ${field} field must be true or false.` }),
    z.transform((v) => v === true || v === 1 || v === '1'),
  );

/** `location_ids[]=1&location_ids[]=2` (or `location_ids=1`): the locations to look in. */
const idList = z.optional(
  z.pipe(
    z.pipe(
      z.union([z.string(), z.array(z.string())]),
      z.transform((v) => (Array.isArray(v) ? v : [v]).map((id) => (/^\d{1,15}$/.test(id) ? Number(id) : NaN))),
    ),
    z.array(z.int('The location ids must be integers.')).check(z.maxLength(100, 'The location ids may not have more than 100 items.')),
  ),
);
// No default page: without one the reference answers every deployable node, unpaged.
const optionalPage = z.optional(
  z.coerce
    .number({ error: 'The page must be an integer.' })
    .check(z.int('The page must be an integer.'), z.gte(1, 'The page must be at least 1.'), z.lte(1_000_000, 'The page is too large.')),
);
export const deployableQuerySchema = z.object({
  page: optionalPage,
  per_page: perPage(50, 100),
  memory: count('memory'),
  disk: count('disk'),
  location_ids: idList,
  'location_ids[]': idList,
  include: includeField,
});

/*
 * Creating or changing a node: the reference's StoreNodeRequest fields and `Node::$validationRules`
 * (an update needs the same, and may ask for a new token with `reset_secret`). Fields it does not
 * take (uuid, daemon tokens, description, ...) are dropped.
 */
export const nodeWriteSchema = z.object({
  // The reference's rule (regex:/^([\w .-]{1,100})$/), with a message that says what it allows.
  name: z
    .string({ error: 'The name field is required.' })
    .check(
      z.minLength(1, 'The name field is required.'),
      z.regex(/^[\w .-]{1,100}$/, 'The name may hold only letters, digits, spaces, dots, dashes and underscores, up to 100 of them.'),
    ),
  location_id: z.int({ error: 'The location id field is required.' }).check(z.gte(1, 'The selected location id is invalid.')),
  fqdn: z
    .string({ error: 'The fqdn field is required.' })
    .check(z.minLength(1, 'The fqdn field is required.'), z.maxLength(253, 'The fqdn may not be greater than 253 characters.')),
  scheme: z.enum(['http', 'https'], { error: 'The scheme must be http or https.' }),
  public: z.optional(flag('public')),
  behind_proxy: z.optional(flag('behind proxy')),
  maintenance_mode: z.optional(flag('maintenance mode')),
  memory: mib('memory', 1),
  memory_overallocate: mib('memory overallocate', -1),
  disk: mib('disk', 1),
  disk_overallocate: mib('disk overallocate', -1),
  upload_size: z.optional(
    z
      .int({ error: 'The upload size must be an integer.' })
      .check(z.gte(1, 'The upload size must be between 1 and 1024.'), z.lte(1024, 'The upload size must be between 1 and 1024.')),
  ),
  daemon_listen: port('daemon listen'),
  daemon_sftp: port('daemon sftp'),
  daemon_base: z.optional(
    z
      .string()
      .check(
        z.maxLength(191, 'The daemon base may not be greater than 191 characters.'),
        z.regex(/^\/[\w.\-/]+$/, 'The daemon base format is invalid.'),
      ),
  ),
  reset_secret: z.optional(z.boolean()),
});
export type NodeWrite = z.infer<typeof nodeWriteSchema>;

export const NODE_ALLOCATION_FILTERS = ['filter[ip]', 'filter[port]', 'filter[ip_alias]', 'filter[server_id]'] as const;
export const nodeAllocationListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[ip]': filterText,
  'filter[port]': filterText,
  'filter[ip_alias]': filterText,
  'filter[server_id]': filterText,
  include: includeField,
});

/** New allocations: an address (or an IPv4 block /27-/32), an alias, and ports or `start-end` ranges. */
export const nodeAllocationCreateSchema = z.object({
  ip: z
    .string({ error: 'The ip field is required.' })
    .check(z.minLength(1, 'The ip field is required.'), z.maxLength(191, 'The ip may not be greater than 191 characters.')),
  alias: z.optional(
    z.nullable(z.string({ error: 'The alias must be a string.' }).check(z.maxLength(191, 'The alias may not be greater than 191 characters.'))),
  ),
  ports: z
    .array(z.string({ error: 'The ports must be strings.' }).check(z.maxLength(11, 'The mapping provided is invalid.')), {
      error: 'The ports field is required.',
    })
    .check(z.minLength(1, 'The ports field is required.'), z.maxLength(1000, 'The ports may not have more than 1000 items.')),
});
export type NodeAllocationCreate = z.infer<typeof nodeAllocationCreateSchema>;

/*
 * Aerie's own change to an allocation (the reference's application API has none; its admin pages
 * set the alias): the alias shown instead of the address, and the notes. A key left out is kept;
 * null or an empty string clears it.
 */
const clearable = (field: string, max: number) =>
  z.optional(
    z.pipe(
      z.nullable(
        z
          .string({ error: `The ${field} must be a string.` })
          .check(z.trim(), z.maxLength(max, `The ${field} may not be greater than ${max} characters.`)),
      ),
      z.transform((v) => (v ? v : null)),
    ),
  );
export const nodeAllocationUpdateSchema = z.object({ ip_alias: clearable('ip alias', 191), notes: clearable('notes', 256) });
export type NodeAllocationUpdate = z.infer<typeof nodeAllocationUpdateSchema>;

const nodesPath = `${ADMIN_ROUTE_PREFIX}/nodes`;
const allocationsPath = `${nodesPath}/:node/allocations`;

export const nodeEndpoints = {
  list: endpoint({ method: 'GET', path: nodesPath, query: nodeListQuerySchema, response: nodeListSchema, admin: true, resource: 'nodes' }),
  /** The public nodes with room for `memory` and `disk` MiB more, in `location_ids` when sent. */
  deployable: endpoint({
    method: 'GET',
    path: `${nodesPath}/deployable`,
    query: deployableQuerySchema,
    response: deployableNodeListSchema,
    admin: true,
    resource: 'nodes',
  }),
  view: endpoint({ method: 'GET', path: `${nodesPath}/:node`, query: includeQuerySchema, response: nodeSchema, admin: true, resource: 'nodes' }),
  configuration: endpoint({
    method: 'GET',
    path: `${nodesPath}/:node/configuration`,
    response: nodeConfigurationSchema,
    admin: true,
    resource: 'nodes',
  }),
  /** 201 with the node and `meta.resource`. */
  create: endpoint({ method: 'POST', path: nodesPath, body: nodeWriteSchema, response: createdNodeSchema, admin: true, resource: 'nodes' }),
  update: endpoint({ method: 'PATCH', path: `${nodesPath}/:node`, body: nodeWriteSchema, response: nodeSchema, admin: true, resource: 'nodes' }),
  /** Refused (400 HasActiveServersException) while servers are on it, and for the panel's own node. */
  delete: endpoint({ method: 'DELETE', path: `${nodesPath}/:node`, response: 'empty', admin: true, resource: 'nodes' }),
  allocations: endpoint({
    method: 'GET',
    path: allocationsPath,
    query: nodeAllocationListQuerySchema,
    response: nodeAllocationListSchema,
    admin: true,
    resource: 'allocations',
  }),
  /** 204; ports the node has already on that address are skipped. */
  createAllocations: endpoint({
    method: 'POST',
    path: allocationsPath,
    body: nodeAllocationCreateSchema,
    response: 'empty',
    admin: true,
    resource: 'allocations',
  }),
  /** Aerie's: sets the alias and notes (an optional extra; a Pterodactyl panel answers 404). */
  updateAllocation: endpoint({
    method: 'PATCH',
    path: `${allocationsPath}/:allocation`,
    body: nodeAllocationUpdateSchema,
    response: nodeAllocationSchema,
    admin: true,
    resource: 'allocations',
  }),
  /** Refused (400 ServerUsingAllocationException) while a server holds it. */
  deleteAllocation: endpoint({ method: 'DELETE', path: `${allocationsPath}/:allocation`, response: 'empty', admin: true, resource: 'allocations' }),
};
