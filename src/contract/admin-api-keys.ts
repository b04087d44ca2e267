import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, APPLICATION_RESOURCES, endpoint } from './endpoint';
import { item, list } from './envelope';
import { timestamp } from './fields';

/*
 * The calling root admin's own application (`ptla_`) keys, in the admin area
 * (`/api/application/api-keys`, Aerie's; a root admin's session only, never a key). Client keys
 * never appear here. Permissions are per resource, as `apikey:create --application --permissions`
 * takes them: `r` read, `w` write, `rw` both; `none` or absent: nothing.
 */

export const KEY_ACCESS = ['none', 'r', 'w', 'rw'] as const;
export type KeyAccess = (typeof KEY_ACCESS)[number];

const resourceName = z.enum(APPLICATION_RESOURCES, { error: 'The permissions name an unknown resource.' });
export const keyPermissionsSchema = z.partialRecord(resourceName, z.enum(KEY_ACCESS, { error: 'Each permission must be none, r, w or rw.' }));
export type KeyPermissionsInput = z.infer<typeof keyPermissionsSchema>;

export const applicationKeyAttributes = z.object({
  identifier: z.string(),
  description: z.string(),
  /** The resources the key holds something on (`r`, `w` or `rw`). */
  permissions: z.partialRecord(resourceName, z.enum(KEY_ACCESS)),
  allowed_ips: z.array(z.string()),
  last_used_at: z.nullable(timestamp),
  created_at: timestamp,
});
export type ApplicationKey = z.infer<typeof applicationKeyAttributes>;
export const applicationKeySchema = item('api_key', applicationKeyAttributes);
export const applicationKeyListSchema = list(applicationKeySchema, z.optional(z.object({})));
/** The secret is in this answer only. */
export const applicationKeyCreatedSchema = z.object({ ...applicationKeySchema.shape, meta: z.object({ secret_token: z.string() }) });

export const MAX_APPLICATION_KEYS = 25;

export const applicationKeyCreateSchema = z.object({
  description: z
    .string({ error: 'The description field is required.' })
    .check(
      z.trim(),
      z.minLength(1, 'The description field is required.'),
      z.maxLength(500, 'The description may not be greater than 500 characters.'),
    ),
  permissions: keyPermissionsSchema,
  allowed_ips: z.optional(
    z.array(z.string().check(z.trim(), z.maxLength(64))).check(z.maxLength(50, 'The allowed ips may not have more than 50 items.')),
  ),
});
export type ApplicationKeyCreate = z.infer<typeof applicationKeyCreateSchema>;

const keysPath = `${ADMIN_ROUTE_PREFIX}/api-keys`;

export const applicationKeyEndpoints = {
  list: endpoint({ method: 'GET', path: keysPath, response: applicationKeyListSchema, admin: true }),
  /** 201 with `meta.secret_token`. */
  create: endpoint({ method: 'POST', path: keysPath, body: applicationKeyCreateSchema, response: applicationKeyCreatedSchema, admin: true }),
  delete: endpoint({ method: 'DELETE', path: `${keysPath}/:identifier`, response: 'empty', admin: true }),
};
