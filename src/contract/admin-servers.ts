import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';
import { filterText, pageNumber, perPage, timestamp } from './fields';
import {
  applicationServerBuildSchema,
  applicationServerCreateSchema,
  applicationServerDetailsSchema,
  applicationServerStartupSchema,
} from './admin-server-writes';

/*
 * Servers as the application API shows them to root admins and billing systems (the reference
 * panel's `server` resource, `/api/application/servers`). The client area's servers are
 * `servers.ts`; the request bodies are `admin-server-writes.ts`.
 */

/** An included resource whose own contract lives with its area (nodes, allocations, eggs…). */
const relatedItem = z.object({ object: z.string(), attributes: z.record(z.string(), z.unknown()) });
const relatedList = z.object({ object: z.literal('list'), data: z.array(relatedItem) });
const related = z.union([relatedItem, relatedList, nullResourceSchema]);

export const applicationServerAttributes = z.object({
  id: z.int(),
  external_id: z.nullable(z.string()),
  uuid: z.uuid(),
  identifier: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  /** installing, install_failed, reinstall_failed, suspended, restoring_backup, or null. */
  status: z.nullable(z.string()),
  /** Deprecated in the reference in favour of `status`; kept for the billing modules that read it. */
  suspended: z.boolean(),
  limits: z.object({
    memory: z.int(),
    swap: z.int(),
    disk: z.int(),
    io: z.int(),
    cpu: z.int(),
    threads: z.nullable(z.string()),
    oom_disabled: z.boolean(),
  }),
  feature_limits: z.object({ databases: z.nullable(z.int()), allocations: z.nullable(z.int()), backups: z.nullable(z.int()) }),
  user: z.int(),
  node: z.int(),
  allocation: z.nullable(z.int()),
  nest: z.int(),
  egg: z.int(),
  container: z.object({
    startup_command: z.string(),
    image: z.string(),
    /** Deprecated in the reference in favour of `status`: 1 once the install has ended well. */
    installed: z.union([z.literal(0), z.literal(1)]),
    environment: z.record(z.string(), z.string()),
    /** Whether the node installs it without the egg's script. */
    skip_scripts: z.boolean(),
  }),
  created_at: timestamp,
  updated_at: timestamp,
  relationships: z.optional(z.record(z.string(), related)),
});
export type ApplicationServer = z.infer<typeof applicationServerAttributes>;
export const applicationServerSchema = item('server', applicationServerAttributes);
export const applicationServerListSchema = list(applicationServerSchema, paginatedMetaSchema);

/** What `include=` may name on servers (the reference's; others are ignored, as there). */
export const APPLICATION_SERVER_INCLUDES = ['allocations', 'user', 'subusers', 'egg', 'variables', 'location', 'node'] as const;
export type ApplicationServerInclude = (typeof APPLICATION_SERVER_INCLUDES)[number];

export const APPLICATION_SERVER_FILTERS = [
  'filter[uuid]',
  'filter[uuidShort]',
  'filter[name]',
  'filter[description]',
  'filter[image]',
  'filter[external_id]',
] as const;
export const APPLICATION_SERVER_SORTS = ['id', '-id', 'uuid', '-uuid'] as const;

const includeQuery = z.optional(z.string().check(z.maxLength(200, 'The include may not be greater than 200 characters.')));

export const applicationServerListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[uuid]': filterText,
  'filter[uuidShort]': filterText,
  'filter[name]': filterText,
  'filter[description]': filterText,
  'filter[image]': filterText,
  'filter[external_id]': filterText,
  sort: z.optional(z.enum(APPLICATION_SERVER_SORTS, { error: 'The sort must be one of id, uuid (with - for descending).' })),
  include: includeQuery,
});
export type ApplicationServerListQuery = z.infer<typeof applicationServerListQuerySchema>;
export const applicationServerViewQuerySchema = z.object({ include: includeQuery });

const serversPath = `${ADMIN_ROUTE_PREFIX}/servers`;
const serverPath = `${serversPath}/:server`;
const row = { admin: true, resource: 'servers' } as const;

export const applicationServerEndpoints = {
  list: endpoint({ method: 'GET', path: serversPath, query: applicationServerListQuerySchema, response: applicationServerListSchema, ...row }),
  view: endpoint({ method: 'GET', path: serverPath, query: applicationServerViewQuerySchema, response: applicationServerSchema, ...row }),
  external: endpoint({
    method: 'GET',
    path: `${serversPath}/external/:external_id`,
    query: applicationServerViewQuerySchema,
    response: applicationServerSchema,
    ...row,
  }),
  /** 201 with the server, still installing; the node installs it with its egg's script. */
  create: endpoint({ method: 'POST', path: serversPath, body: applicationServerCreateSchema, response: applicationServerSchema, ...row }),
  details: endpoint({
    method: 'PATCH',
    path: `${serverPath}/details`,
    body: applicationServerDetailsSchema,
    response: applicationServerSchema,
    ...row,
  }),
  build: endpoint({ method: 'PATCH', path: `${serverPath}/build`, body: applicationServerBuildSchema, response: applicationServerSchema, ...row }),
  startup: endpoint({
    method: 'PATCH',
    path: `${serverPath}/startup`,
    body: applicationServerStartupSchema,
    response: applicationServerSchema,
    ...row,
  }),
  suspend: endpoint({ method: 'POST', path: `${serverPath}/suspend`, response: 'empty', ...row }),
  unsuspend: endpoint({ method: 'POST', path: `${serverPath}/unsuspend`, response: 'empty', ...row }),
  reinstall: endpoint({ method: 'POST', path: `${serverPath}/reinstall`, response: 'empty', ...row }),
  delete: endpoint({ method: 'DELETE', path: serverPath, response: 'empty', ...row }),
  /** Deletes the records even when the node or a database host refuses (the reference's `force`). */
  forceDelete: endpoint({ method: 'DELETE', path: `${serverPath}/force`, response: 'empty', ...row }),
};
