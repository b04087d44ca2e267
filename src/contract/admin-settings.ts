import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item } from './envelope';

/*
 * The panel's settings (Aerie's admin area; the reference keeps these in its server-rendered admin
 * pages): the panel's name, its mail, and who must use two-factor authentication. Root admins'
 * sessions only: an application key holds no resource that opens them. The name is also public
 * (`GET /api/panel`), for the header and the sign-in page; a real Pterodactyl answers that with a
 * 404, and the SPA then says "Aerie".
 */

/** The reference's `2fa` setting: 0 nobody, 1 root admins, 2 everyone. */
export const TWO_FACTOR_LEVELS = ['off', 'admins', 'everyone'] as const;
export type TwoFactorLevel = (typeof TWO_FACTOR_LEVELS)[number];

/** none: plain SMTP; starttls: upgrade when offered; tls: TLS from the first byte (port 465). */
export const SMTP_ENCRYPTIONS = ['none', 'starttls', 'tls'] as const;
export type SmtpEncryption = (typeof SMTP_ENCRYPTIONS)[number];

export const PANEL_NAME_MAX = 60;
export const DEFAULT_PANEL_NAME = 'Aerie';

export const panelInfoSchema = item('panel', z.object({ name: z.string() }));

export const mailSettingsAttributes = z.object({
  host: z.string(),
  port: z.int(),
  encryption: z.enum(SMTP_ENCRYPTIONS),
  username: z.nullable(z.string()),
  /** Whether a password is stored: the password itself is never sent back. */
  password_set: z.boolean(),
  from_address: z.string(),
  from_name: z.nullable(z.string()),
});
export type MailSettings = z.infer<typeof mailSettingsAttributes>;

export const settingsAttributes = z.object({
  panel_name: z.string(),
  require_two_factor: z.enum(TWO_FACTOR_LEVELS),
  /** null: no mail settings stored (the environment's SMTP_URL, if any, is used). */
  mail: z.nullable(mailSettingsAttributes),
  /** Where mail goes now: stored settings, SMTP_URL, or nowhere. */
  mail_source: z.enum(['settings', 'environment', 'none']),
});
export type PanelSettings = z.infer<typeof settingsAttributes>;
export const settingsSchema = item('settings', settingsAttributes);

const line = (field: string, max: number) =>
  z.string({ error: `The ${field} must be a string.` }).check(
    z.trim(),
    z.maxLength(max, `The ${field} may not be greater than ${max} characters.`),
    z.refine((s) => !/[\r\n\0]/.test(s), `The ${field} may not contain line breaks.`),
  );

export const mailSettingsInput = z.object({
  host: line('host', 191).check(
    z.minLength(1, 'The host field is required.'),
    z.regex(/^[A-Za-z0-9.:[\]_-]+$/, 'The host must be a host name or an IP address.'),
  ),
  port: z
    .int({ error: 'The port must be an integer.' })
    .check(z.gte(1, 'The port must be between 1 and 65535.'), z.lte(65535, 'The port must be between 1 and 65535.')),
  encryption: z.enum(SMTP_ENCRYPTIONS, { error: 'The encryption must be none, starttls or tls.' }),
  username: z.optional(z.nullable(line('username', 191))),
  /** Left out: the stored password stays; null or '': none. */
  password: z.optional(
    z.nullable(
      z.string({ error: 'The password must be a string.' }).check(z.maxLength(1024, 'The password may not be greater than 1024 characters.')),
    ),
  ),
  from_address: line('from address', 191).check(z.regex(/^[^\s@<>"]+@[^\s@<>"]+$/, 'The from address must be a valid email address.')),
  from_name: z.optional(z.nullable(line('from name', 191))),
});
export type MailSettingsInput = z.infer<typeof mailSettingsInput>;

export const panelNameSchema = line('panel name', PANEL_NAME_MAX).check(z.minLength(1, 'The panel name field is required.'));

/** Every field may be left out (unchanged); `mail: null` removes the stored mail settings. */
export const settingsUpdateSchema = z.object({
  panel_name: z.optional(panelNameSchema),
  require_two_factor: z.optional(z.enum(TWO_FACTOR_LEVELS, { error: 'The require two factor must be off, admins or everyone.' })),
  mail: z.optional(z.nullable(mailSettingsInput)),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const mailTestSchema = item('mail_test', z.object({ to: z.string() }));

export const panelEndpoints = {
  /** Public: no caller needed (the sign-in page shows the name). */
  info: endpoint({ method: 'GET', path: '/api/panel', response: panelInfoSchema }),
};

export const adminSettingsEndpoints = {
  view: endpoint({ method: 'GET', path: `${ADMIN_ROUTE_PREFIX}/settings`, response: settingsSchema, admin: true }),
  update: endpoint({ method: 'PATCH', path: `${ADMIN_ROUTE_PREFIX}/settings`, body: settingsUpdateSchema, response: settingsSchema, admin: true }),
  /** Sends a test mail to the calling admin's own address with the mail settings in force. */
  mailTest: endpoint({ method: 'POST', path: `${ADMIN_ROUTE_PREFIX}/settings/mail/test`, response: mailTestSchema, admin: true }),
};
