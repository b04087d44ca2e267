import * as z from 'zod/mini';
import { endpoint, SERVER_ROUTE_PREFIX } from './endpoint';
import { item, list, optionalListMetaSchema } from './envelope';
import { text, timestamp } from './fields';

// A subuser of a server.
export const subuserAttributes = z.object({
  uuid: z.uuid(),
  identifier: z.optional(z.string()),
  username: z.string(),
  email: z.string(),
  image: z.string(),
  '2fa_enabled': z.boolean(),
  created_at: timestamp,
  permissions: z.array(z.string()),
});
export const subuserSchema = item('server_subuser', subuserAttributes);
export type Subuser = z.infer<typeof subuserAttributes>;
export const subuserListSchema = list(subuserSchema, optionalListMetaSchema);

// Adding a subuser: an email and at least one known permission.
export const subuserCreateSchema = z.object({
  email: text('The email field is required.').check(
    z.minLength(1, 'The email must be between 1 and 191 characters.'),
    z.maxLength(191, 'The email must be between 1 and 191 characters.'),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'The email must be a valid email address.'),
  ),
  permissions: z
    .array(z.string().check(z.maxLength(64)), { error: 'The permissions field is required.' })
    .check(z.minLength(1, 'The permissions field is required.'), z.maxLength(200)),
});
export type SubuserCreate = z.infer<typeof subuserCreateSchema>;
export const subuserUpdateSchema = z.pick(subuserCreateSchema, { permissions: true });

/**
 * A subuser just added. When the address had no account and the panel sends no mail, `meta`
 * carries the set-password link for the owner to pass on (an extra the reference panel lacks).
 */
export const subuserCreatedSchema = z.object({
  object: z.literal('server_subuser'),
  attributes: subuserAttributes,
});

const subuserPath = `${SERVER_ROUTE_PREFIX}/users`;

export const subuserEndpoints = {
  list: endpoint({ method: 'GET', path: subuserPath, response: subuserListSchema, permission: 'user.read' }),
  /** The subset rule (a subuser grants only what they hold) is checked on the raw body. */
  create: endpoint({ method: 'POST', path: subuserPath, body: subuserCreateSchema, response: subuserCreatedSchema, permission: 'user.create' }),
  view: endpoint({ method: 'GET', path: `${subuserPath}/:user`, response: subuserSchema, permission: 'user.read' }),
  update: endpoint({ method: 'POST', path: `${subuserPath}/:user`, body: subuserUpdateSchema, response: subuserSchema, permission: 'user.update' }),
  delete: endpoint({ method: 'DELETE', path: `${subuserPath}/:user`, response: 'empty', permission: 'user.delete' }),
};
