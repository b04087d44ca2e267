import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, paginatedMetaSchema } from './envelope';
import { filterText, pageNumber, perPage, timestamp } from './fields';

/*
 * Database hosts in the application API (`/api/application/database-hosts`, the path Pelican
 * gives them; the reference panel has the `database_host` resource and its key grant but keeps the
 * routes in its admin pages). The reference's shape, plus Aerie's `max_databases` and `databases`
 * (how many live on the host). The admin password is write-only.
 */

export const databaseHostAttributes = z.object({
  id: z.int(),
  name: z.string(),
  host: z.string(),
  port: z.int(),
  username: z.string(),
  /** The node the host is linked to, or null. */
  node: z.nullable(z.int()),
  /** null: no limit. */
  max_databases: z.nullable(z.int()),
  /** How many server databases live on the host now. */
  databases: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type DatabaseHost = z.infer<typeof databaseHostAttributes>;
export const databaseHostSchema = item('database_host', databaseHostAttributes);
export const databaseHostListSchema = list(databaseHostSchema, paginatedMetaSchema);
export const databaseHostTestSchema = item('database_host_test', z.object({ ok: z.literal(true) }));

export const databaseHostListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[name]': filterText,
});

const name = z
  .string({ error: 'The name field is required.' })
  .check(z.trim(), z.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'The name must be 1 to 64 letters, digits, dots, dashes or underscores.'));
const host = z
  .string({ error: 'The host field is required.' })
  .check(
    z.trim(),
    z.minLength(1, 'The host field is required.'),
    z.maxLength(191, 'The host may not be greater than 191 characters.'),
    z.regex(/^[A-Za-z0-9.:[\]_-]+$/, 'The host must be a host name or an IP address.'),
  );
const port = z
  .int({ error: 'The port must be an integer.' })
  .check(z.gte(1, 'The port must be between 1 and 65535.'), z.lte(65535, 'The port must be between 1 and 65535.'));
const username = z
  .string({ error: 'The username field is required.' })
  .check(z.trim(), z.minLength(1, 'The username field is required.'), z.maxLength(32, 'The username may not be greater than 32 characters.'));
const password = z
  .string({ error: 'The password field is required.' })
  .check(z.maxLength(1024, 'The password may not be greater than 1024 characters.'));
const maxDatabases = z.nullable(
  z
    .int({ error: 'The max databases must be an integer.' })
    .check(z.gte(0, 'The max databases must be at least 0.'), z.lte(1_000_000, 'The max databases is too large.')),
);
const node = z.nullable(z.int({ error: 'The node must be an integer.' }).check(z.gte(1, 'The selected node is invalid.')));

export const databaseHostCreateSchema = z.object({
  name,
  host,
  port: z._default(port, 3306),
  username,
  password,
  max_databases: z.optional(maxDatabases),
  node: z.optional(node),
});
export type DatabaseHostCreate = z.infer<typeof databaseHostCreateSchema>;

/** Only what is given changes; the password left out stays as stored. */
export const databaseHostUpdateSchema = z.object({
  name: z.optional(name),
  host: z.optional(host),
  port: z.optional(port),
  username: z.optional(username),
  password: z.optional(password),
  max_databases: z.optional(maxDatabases),
  node: z.optional(node),
});
export type DatabaseHostUpdate = z.infer<typeof databaseHostUpdateSchema>;

const hostsPath = `${ADMIN_ROUTE_PREFIX}/database-hosts`;
const resource = 'database_hosts' as const;

export const databaseHostEndpoints = {
  list: endpoint({ method: 'GET', path: hostsPath, query: databaseHostListQuerySchema, response: databaseHostListSchema, admin: true, resource }),
  view: endpoint({ method: 'GET', path: `${hostsPath}/:host`, response: databaseHostSchema, admin: true, resource }),
  /** 201; the connection and the account's privileges are checked first (400 with what the host said). */
  create: endpoint({ method: 'POST', path: hostsPath, body: databaseHostCreateSchema, response: databaseHostSchema, admin: true, resource }),
  update: endpoint({
    method: 'PATCH',
    path: `${hostsPath}/:host`,
    body: databaseHostUpdateSchema,
    response: databaseHostSchema,
    admin: true,
    resource,
  }),
  /** Connects with the stored account and checks its privileges. */
  test: endpoint({ method: 'POST', path: `${hostsPath}/:host/test`, response: databaseHostTestSchema, admin: true, resource }),
  /** Refused (400) while databases live on it. */
  delete: endpoint({ method: 'DELETE', path: `${hostsPath}/:host`, response: 'empty', admin: true, resource }),
};
