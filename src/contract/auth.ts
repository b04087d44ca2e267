import * as z from 'zod/mini';
import { endpoint } from './endpoint';

// The user returned by a completed login.
export const loginUserSchema = z.object({
  uuid: z.string(),
  username: z.string(),
  email: z.string(),
  name_first: z.string(),
  name_last: z.string(),
  language: z.string(),
  identifier: z.optional(z.string()),
  root_admin: z.boolean(),
  use_totp: z.boolean(),
  gravatar: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LoginUser = z.infer<typeof loginUserSchema>;

// POST /auth/login: `user` is a username, or an email when it has an `@`.
export const loginRequestSchema = z.object({
  user: z
    .string({ error: 'The user field is required.' })
    .check(z.minLength(1, 'The user field is required.'), z.maxLength(191, 'The user may not be greater than 191 characters.')),
  password: z
    .string({ error: 'The password field is required.' })
    .check(z.minLength(1, 'The password field is required.'), z.maxLength(1024, 'The password may not be greater than 1024 characters.')),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginCompleteSchema = z.object({ complete: z.literal(true), intended: z.string(), user: loginUserSchema });
export const loginPendingSchema = z.object({ complete: z.literal(false), confirmation_token: z.string() });
export const loginResponseSchema = z.object({ data: z.union([loginCompleteSchema, loginPendingSchema]) });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

// The second login step: the checkpoint token with a TOTP code or a recovery code.
export const checkpointRequestSchema = z
  .object({
    confirmation_token: z
      .string({ error: 'The confirmation token field is required.' })
      .check(z.minLength(1, 'The confirmation token field is required.'), z.maxLength(256)),
    authentication_code: z.optional(z.string().check(z.regex(/^[0-9]{6}$/, 'The authentication code must be 6 digits.'))),
    recovery_token: z.optional(z.string().check(z.minLength(1, 'The recovery token field is required.'), z.maxLength(64))),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.authentication_code === undefined && body.recovery_token === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['authentication_code'],
          message: 'The authentication code field is required when recovery token is not present.',
          input: body,
        });
      }
    }),
  );
export type CheckpointRequest = z.infer<typeof checkpointRequestSchema>;
export const checkpointResponseSchema = z.object({ data: loginCompleteSchema });

/** Browser-session routes. */
export const authEndpoints = {
  login: endpoint({ method: 'POST', path: '/auth/login', body: loginRequestSchema, response: loginResponseSchema }),
  checkpoint: endpoint({ method: 'POST', path: '/auth/login/checkpoint', body: checkpointRequestSchema, response: checkpointResponseSchema }),
  logout: endpoint({ method: 'POST', path: '/auth/logout', response: 'empty' }),
};
