import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list, optionalListMetaSchema } from './envelope';
import { text, timestamp } from './fields';

// GET /api/client/account.
export const accountAttributes = z.object({
  id: z.int(),
  admin: z.boolean(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: z.string(),
});
export const accountSchema = item('user', accountAttributes);
export type Account = z.infer<typeof accountAttributes>;

// GET /api/client/permissions
export const systemPermissionsSchema = z.object({
  object: z.literal('system_permissions'),
  attributes: z.object({
    permissions: z.record(z.string(), z.object({ description: z.string(), keys: z.record(z.string(), z.string()) })),
  }),
});

// An SSH key of the account, with the reference panel's fields.
export const sshKeyAttributes = z.object({ name: z.string(), fingerprint: z.string(), public_key: z.string(), created_at: timestamp });
export const sshKeySchema = item('ssh_key', sshKeyAttributes);
export type SshKey = z.infer<typeof sshKeyAttributes>;
export const sshKeyListSchema = list(sshKeySchema, optionalListMetaSchema);

// Changing the account password.
export const passwordUpdateSchema = z
  .object({
    current_password: text('The current password field is required.').check(
      z.minLength(1, 'The current password field is required.'),
      z.maxLength(1024),
    ),
    password: text('The password field is required.').check(
      z.minLength(8, 'The password must be at least 8 characters.'),
      z.maxLength(1024, 'The password may not be greater than 1024 characters.'),
    ),
    password_confirmation: text('The password confirmation field is required.').check(z.maxLength(1024)),
  })
  .check(
    z.refine((b) => b.password === b.password_confirmation, {
      path: ['password_confirmation'],
      message: 'The password confirmation does not match.',
    }),
  );
export type PasswordUpdate = z.infer<typeof passwordUpdateSchema>;

// Removing an SSH key by its fingerprint.
export const sshKeyRemoveSchema = z.object({
  fingerprint: text('The fingerprint field is required.').check(z.minLength(1, 'The fingerprint field is required.'), z.maxLength(191)),
});

export const sshKeyCreateSchema = z.object({
  name: text('The name field is required.').check(z.trim(), z.minLength(1, 'The name field is required.'), z.maxLength(191)),
  public_key: text('The public key field is required.').check(z.trim(), z.minLength(1, 'The public key field is required.'), z.maxLength(16_384)),
});

export const accountEndpoints = {
  /** The signed-in user; a 401 here means "not signed in". */
  me: endpoint({ method: 'GET', path: '/api/client/account', response: accountSchema }),
  /** The permission catalogue the subuser editor explains. */
  permissions: endpoint({ method: 'GET', path: '/api/client/permissions', response: systemPermissionsSchema }),
};
