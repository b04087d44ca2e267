import * as z from 'zod/mini';
import { endpoint, SERVER_ROUTE_PREFIX } from './endpoint';
import { item, list, nullResourceSchema, paginationSchema } from './envelope';
import { text } from './fields';

// A database of a server; its password is included only when asked for.
export const databasePasswordSchema = item('database_password', z.object({ password: z.string() }));
export const serverDatabaseAttributes = z.object({
  id: z.string(),
  host: z.object({ address: z.string(), port: z.int() }),
  name: z.string(),
  username: z.string(),
  connections_from: z.string(),
  // The user's MAX_USER_CONNECTIONS on the host: an integer, never null (spec §2.9); 0 is none of its own.
  max_connections: z.int(),
  relationships: z.optional(z.object({ password: z.union([databasePasswordSchema, nullResourceSchema]) })),
});
export const serverDatabaseSchema = item('server_database', serverDatabaseAttributes);
export type ServerDatabase = z.infer<typeof serverDatabaseAttributes>;
/**
 * `meta.has_database_host` (this panel's own, optional): false when the panel has no database host
 * at all, so the page can say so before anyone tries; a reference panel sends no such key.
 */
export const serverDatabaseListSchema = list(
  serverDatabaseSchema,
  z.optional(z.object({ pagination: z.optional(paginationSchema), has_database_host: z.optional(z.boolean()) })),
);

/** A database name as typed: the real one on the host is `s<server id>_<name>`. */
export const DATABASE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,48}$/;
/** Connections from: `%`, an IPv4 address or pattern (`10.0.%`, `10.0.0.0/255.0.0.0`), or an IPv6 one. */
export const DATABASE_REMOTE_PATTERN = /^(?:%|[0-9.%_]{1,45}(?:\/[0-9.]{1,15})?|[0-9A-Fa-f:.%]{2,45})$/;
export const DATABASE_NAME_RULE = 'The database name must be 1 to 48 letters, digits, underscores or dashes.';
export const DATABASE_REMOTE_RULE = 'Connections from must be % or an IP address or pattern (e.g. 192.168.1.%, 10.0.0.0/255.0.0.0).';

export const createDatabaseSchema = z.object({
  database: text('The database field is required.').check(z.regex(DATABASE_NAME_PATTERN, DATABASE_NAME_RULE)),
  remote: text('The remote field is required.').check(z.regex(DATABASE_REMOTE_PATTERN, DATABASE_REMOTE_RULE)),
});
export type CreateDatabaseBody = z.infer<typeof createDatabaseSchema>;

// `include=password` (comma-separated; other names are ignored, as the reference panel ignores them).
export const databaseQuerySchema = z.object({
  include: z.pipe(
    z.optional(z.string().check(z.maxLength(100))),
    z.transform((s) =>
      (s ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ),
});

const databases = `${SERVER_ROUTE_PREFIX}/databases`;

export const databaseEndpoints = {
  list: endpoint({ method: 'GET', path: databases, query: databaseQuerySchema, response: serverDatabaseListSchema, permission: 'database.read' }),
  /** The new database with its password (when the caller may view passwords). */
  create: endpoint({ method: 'POST', path: databases, body: createDatabaseSchema, response: serverDatabaseSchema, permission: 'database.create' }),
  rotatePassword: endpoint({
    method: 'POST',
    path: `${databases}/:database/rotate-password`,
    response: serverDatabaseSchema,
    permission: 'database.update',
  }),
  delete: endpoint({ method: 'DELETE', path: `${databases}/:database`, response: 'empty', permission: 'database.delete' }),
};
