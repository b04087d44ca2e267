import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, optionalListMetaSchema, paginatedMetaSchema } from './envelope';
import { pageNumber, perPage, timestamp } from './fields';
import { includeField, includeQuerySchema, relationshipsSchema } from './locations';

/*
 * Nests and eggs as the application API shows them (the reference panel's `nest`, `egg` and
 * `egg_variable` resources, `/api/application/nests/...`): read by billing systems to pick an egg
 * and fill its variables, and by the admin area's egg pages.
 */

export const nestAttributes = z.object({
  id: z.int(),
  uuid: z.string(),
  author: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  relationships: relationshipsSchema,
});
export type AdminNest = z.infer<typeof nestAttributes>;
export const nestSchema = item('nest', nestAttributes);
export const nestListSchema = list(nestSchema, paginatedMetaSchema);

/** The reference's JSON columns come back decoded as they were stored: objects, lists, or null. */
const jsonValue = z.unknown();

export const eggAttributes = z.object({
  id: z.int(),
  uuid: z.string(),
  name: z.string(),
  nest: z.int(),
  author: z.string(),
  description: z.nullable(z.string()),
  /** The first of `docker_images` (the reference keeps it for older clients). */
  docker_image: z.string(),
  /** Display name → image reference. */
  docker_images: z.record(z.string(), z.string()),
  config: z.object({
    files: jsonValue,
    startup: jsonValue,
    stop: z.nullable(z.string()),
    logs: jsonValue,
    file_denylist: z.array(z.string()),
    extends: z.nullable(z.int()),
  }),
  startup: z.string(),
  script: z.object({
    privileged: z.boolean(),
    install: z.nullable(z.string()),
    entry: z.string(),
    container: z.string(),
    extends: z.nullable(z.int()),
  }),
  created_at: timestamp,
  updated_at: timestamp,
  relationships: relationshipsSchema,
});
export type AdminEgg = z.infer<typeof eggAttributes>;
export const eggSchema = item('egg', eggAttributes);
/** A nest's eggs: all of them, unpaged, as the reference. */
export const eggListSchema = list(eggSchema, optionalListMetaSchema);

/** One of an egg's variables (`include=variables`), the reference's EggVariable as stored. */
export const adminEggVariableAttributes = z.object({
  id: z.int(),
  egg_id: z.int(),
  name: z.string(),
  description: z.string(),
  env_variable: z.string(),
  default_value: z.string(),
  user_viewable: z.boolean(),
  user_editable: z.boolean(),
  rules: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type AdminEggVariable = z.infer<typeof adminEggVariableAttributes>;
export const adminEggVariableSchema = item('egg_variable', adminEggVariableAttributes);
export const adminEggVariableListSchema = z.object({ object: z.literal('list'), data: z.array(adminEggVariableSchema) });

export const NEST_INCLUDES = ['eggs', 'servers'] as const;
export const EGG_INCLUDES = ['nest', 'servers', 'config', 'script', 'variables'] as const;

export const nestListQuerySchema = z.object({ page: pageNumber, per_page: perPage(50, 100), include: includeField });

export const nestsPath = `${ADMIN_ROUTE_PREFIX}/nests`;
export const eggsPath = `${nestsPath}/:nest/eggs`;

export const nestEndpoints = {
  list: endpoint({ method: 'GET', path: nestsPath, query: nestListQuerySchema, response: nestListSchema, admin: true, resource: 'nests' }),
  view: endpoint({ method: 'GET', path: `${nestsPath}/:nest`, query: includeQuerySchema, response: nestSchema, admin: true, resource: 'nests' }),
};

export const eggEndpoints = {
  list: endpoint({ method: 'GET', path: eggsPath, query: includeQuerySchema, response: eggListSchema, admin: true, resource: 'eggs' }),
  view: endpoint({ method: 'GET', path: `${eggsPath}/:egg`, query: includeQuerySchema, response: eggSchema, admin: true, resource: 'eggs' }),
};
