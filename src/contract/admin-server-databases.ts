import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, nullResourceSchema } from './envelope';
import { createDatabaseSchema } from './databases';
import { timestamp } from './fields';

/*
 * A server's databases as the application API shows them (the reference's application
 * `server_database`, `/api/application/servers/:server/databases`); the client area's are
 * `databases.ts`. The password and the host are included only when asked for.
 */

export const applicationDatabaseAttributes = z.object({
  id: z.int(),
  server: z.int(),
  host: z.int(),
  /** The real name on the host, `s<server id>_<name>`. */
  database: z.string(),
  username: z.string(),
  remote: z.string(),
  max_connections: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
  relationships: z.optional(
    z.record(z.string(), z.union([z.object({ object: z.string(), attributes: z.record(z.string(), z.unknown()) }), nullResourceSchema])),
  ),
});
export const applicationDatabaseSchema = item('server_database', applicationDatabaseAttributes);
export const applicationDatabaseListSchema = list(applicationDatabaseSchema, z.optional(z.object({})));

export const applicationDatabaseQuerySchema = z.object({ include: z.optional(z.string().check(z.maxLength(100))) });

/** The reference's StoreServerDatabaseRequest: the client's name and remote rules, and the host, by id. */
export const applicationDatabaseCreateSchema = z.extend(createDatabaseSchema, {
  host: z.int({ error: 'The host must be the id of a database host.' }).check(z.gte(1, 'The host must be the id of a database host.')),
});
export type ApplicationDatabaseCreate = z.infer<typeof applicationDatabaseCreateSchema>;

const databases = `${ADMIN_ROUTE_PREFIX}/servers/:server/databases`;
const row = { admin: true, resource: 'server_databases' } as const;

export const applicationDatabaseEndpoints = {
  list: endpoint({ method: 'GET', path: databases, query: applicationDatabaseQuerySchema, response: applicationDatabaseListSchema, ...row }),
  view: endpoint({
    method: 'GET',
    path: `${databases}/:database`,
    query: applicationDatabaseQuerySchema,
    response: applicationDatabaseSchema,
    ...row,
  }),
  /** 201 with the database; made on the host named. */
  create: endpoint({ method: 'POST', path: databases, body: applicationDatabaseCreateSchema, response: applicationDatabaseSchema, ...row }),
  resetPassword: endpoint({ method: 'POST', path: `${databases}/:database/reset-password`, response: 'empty', ...row }),
  delete: endpoint({ method: 'DELETE', path: `${databases}/:database`, response: 'empty', ...row }),
};
