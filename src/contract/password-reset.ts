import * as z from 'zod/mini';
import { endpoint } from './endpoint';

const emailField = z
  .string({ error: 'The email field is required.' })
  .check(
    z.minLength(1, 'The email field is required.'),
    z.maxLength(191, 'The email must be between 1 and 191 characters.'),
    z.regex(/^[^\s@]+@[^\s@]+$/, 'The email must be a valid email address.'),
  );

// POST /auth/password: asks for a reset link by mail.
export const forgotPasswordRequestSchema = z.object({ email: emailField });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;
/** The reference panel's answer, the same whether or not the address has an account. */
export const forgotPasswordResponseSchema = z.object({ status: z.string() });
export const FORGOT_PASSWORD_SENT = 'We have e-mailed your password reset link!';

// POST /auth/password/reset: a new password with the mailed token.
export const resetPasswordRequestSchema = z
  .object({
    token: z.string({ error: 'The token field is required.' }).check(z.minLength(1, 'The token field is required.'), z.maxLength(256)),
    email: emailField,
    password: z
      .string({ error: 'The password field is required.' })
      .check(
        z.minLength(8, 'The password must be at least 8 characters.'),
        z.maxLength(1024, 'The password may not be greater than 1024 characters.'),
      ),
    password_confirmation: z.string({ error: 'The password confirmation field is required.' }),
  })
  .check(
    z.refine((b) => b.password === b.password_confirmation, {
      path: ['password_confirmation'],
      message: 'The password confirmation does not match.',
    }),
  );
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
export const resetPasswordResponseSchema = z.object({ success: z.literal(true), redirect_to: z.string(), send_to_login: z.boolean() });
export const RESET_TOKEN_INVALID = 'This password reset token is invalid.';

/** Whether the panel can send mail, so the sign-in page offers "Forgot password?" only then. */
export const passwordResetStatusSchema = z.object({ data: z.object({ mail: z.boolean() }) });

export const passwordResetEndpoints = {
  forgot: endpoint({ method: 'POST', path: '/auth/password', body: forgotPasswordRequestSchema, response: forgotPasswordResponseSchema }),
  reset: endpoint({ method: 'POST', path: '/auth/password/reset', body: resetPasswordRequestSchema, response: resetPasswordResponseSchema }),
  status: endpoint({ method: 'GET', path: '/auth/password/status', response: passwordResetStatusSchema }),
};
