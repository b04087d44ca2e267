import * as z from 'zod/mini';
import { item, list, nullResourceSchema, optionalListMetaSchema } from './envelope';
import { nullableInt } from './fields';

// A database of a server; its password is included only when asked for.
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
