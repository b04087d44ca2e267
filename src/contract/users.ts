import * as z from 'zod/mini';
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
