import * as z from 'zod/mini';
import { endpoint } from './endpoint';
import { item, list, optionalListMetaSchema } from './envelope';
import { activityLogListSchema, activityQuerySchema } from './activity';
import { text, timestamp } from './fields';
import { LOCALES, THEMES } from './locales';

// GET /api/client/account.
export const accountAttributes = z.object({
  id: z.int(),
  admin: z.boolean(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: z.string(),
  /** Whether two-factor sign-in is on: this panel's addition (the reference SPA reads it from the page). */
  use_totp: z.optional(z.boolean()),
  /** The account's colour theme: this panel's addition; without it (a real Pterodactyl panel) the browser's own choice stands. */
  theme: z.optional(z.enum(THEMES)),
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

// Aerie's addition: the account's theme and language, either or both; any other field is refused.
export const preferencesUpdateSchema = z
  .strictObject({
    theme: z.optional(z.enum(THEMES, 'The theme must be one of light, dark or system.')),
    language: z.optional(z.enum(LOCALES, `The language must be one of ${LOCALES.join(', ')}.`)),
  })
  .check(
    z.refine((b) => b.theme !== undefined || b.language !== undefined, {
      message: 'The theme or the language is required.',
    }),
  );
export type PreferencesUpdate = z.infer<typeof preferencesUpdateSchema>;

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

// Changing the account e-mail address; the current password confirms it.
export const emailUpdateSchema = z.object({
  email: text('The email field is required.').check(
    z.trim(),
    z.minLength(1, 'The email field is required.'),
    z.maxLength(191, 'The email may not be greater than 191 characters.'),
    z.regex(/^[^\s@]+@[^\s@]+$/, 'The email must be a valid email address.'),
  ),
  password: text('The password field is required.').check(z.minLength(1, 'The password field is required.'), z.maxLength(1024)),
});

// Two-factor setup: a new secret (not active until confirmed with a code) and its otpauth:// URI.
export const twoFactorSetupSchema = z.object({ data: z.object({ image_url_data: z.string(), secret: z.string() }) });
export const twoFactorEnableSchema = z.object({
  code: text('The code field is required.').check(z.trim(), z.regex(/^\d{6}$/, 'The code must be 6 digits.')),
  password: text('The password field is required.').check(z.minLength(1, 'The password field is required.'), z.maxLength(1024)),
});
export const twoFactorDisableSchema = z.object({
  password: text('The password field is required.').check(z.minLength(1, 'The password field is required.'), z.maxLength(1024)),
});
export const recoveryTokensSchema = item('recovery_tokens', z.object({ tokens: z.array(z.string()) }));

// A client API key of the account; its secret is shown once, in `meta.secret_token` of the creation answer.
export const apiKeyAttributes = z.object({
  identifier: z.string(),
  description: z.string(),
  allowed_ips: z.array(z.string()),
  last_used_at: z.nullable(timestamp),
  created_at: timestamp,
});
export const apiKeySchema = item('api_key', apiKeyAttributes);
export type ApiKey = z.infer<typeof apiKeyAttributes>;
export const apiKeyListSchema = list(apiKeySchema, optionalListMetaSchema);
export const apiKeyCreatedSchema = z.object({ ...apiKeySchema.shape, meta: z.object({ secret_token: z.string() }) });
export const MAX_API_KEYS = 25;
export const apiKeyCreateSchema = z.object({
  description: text('The description field is required.').check(
    z.trim(),
    z.minLength(1, 'The description field is required.'),
    z.maxLength(500, 'The description may not be greater than 500 characters.'),
  ),
  allowed_ips: z.optional(
    z.array(z.string().check(z.trim(), z.maxLength(64))).check(z.maxLength(50, 'The allowed ips may not have more than 50 items.')),
  ),
});

export const accountEndpoints = {
  /** The signed-in user; a 401 here means "not signed in". */
  me: endpoint({ method: 'GET', path: '/api/client/account', response: accountSchema }),
  /** The permission catalogue the subuser editor explains. */
  permissions: endpoint({ method: 'GET', path: '/api/client/permissions', response: systemPermissionsSchema }),
  password: endpoint({ method: 'PUT', path: '/api/client/account/password', body: passwordUpdateSchema, response: 'empty' }),
  /** Aerie's addition: the account's theme and language. */
  preferences: endpoint({ method: 'PUT', path: '/api/client/account/preferences', body: preferencesUpdateSchema, response: 'empty' }),
  email: endpoint({ method: 'PUT', path: '/api/client/account/email', body: emailUpdateSchema, response: 'empty' }),
  twoFactorSetup: endpoint({ method: 'GET', path: '/api/client/account/two-factor', response: twoFactorSetupSchema }),
  twoFactorEnable: endpoint({ method: 'POST', path: '/api/client/account/two-factor', body: twoFactorEnableSchema, response: recoveryTokensSchema }),
  twoFactorDisable: endpoint({ method: 'POST', path: '/api/client/account/two-factor/disable', body: twoFactorDisableSchema, response: 'empty' }),
  apiKeys: endpoint({ method: 'GET', path: '/api/client/account/api-keys', response: apiKeyListSchema }),
  apiKeyCreate: endpoint({ method: 'POST', path: '/api/client/account/api-keys', body: apiKeyCreateSchema, response: apiKeyCreatedSchema }),
  apiKeyDelete: endpoint({ method: 'DELETE', path: '/api/client/account/api-keys/:identifier', response: 'empty' }),
  sshKeys: endpoint({ method: 'GET', path: '/api/client/account/ssh-keys', response: sshKeyListSchema }),
  sshKeyCreate: endpoint({ method: 'POST', path: '/api/client/account/ssh-keys', body: sshKeyCreateSchema, response: sshKeySchema }),
  sshKeyRemove: endpoint({ method: 'POST', path: '/api/client/account/ssh-keys/remove', body: sshKeyRemoveSchema, response: 'empty' }),
  /** The account's own audit entries (the user is their subject), as the server activity. */
  activity: endpoint({ method: 'GET', path: '/api/client/account/activity', query: activityQuerySchema, response: activityLogListSchema }),
};
