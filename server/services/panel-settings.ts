import * as z from 'zod/mini';
import {
  DEFAULT_PANEL_NAME,
  SMTP_ENCRYPTIONS,
  TWO_FACTOR_LEVELS,
  type MailSettingsInput,
  type PanelSettings,
  type SettingsUpdate,
  type TwoFactorLevel,
} from '../../src/contract/admin-settings';
import type { Db } from '../db';
import { settings } from '../db/repos';
import type { UserRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import type { Config } from '../config';
import { mailerFor, type Mailer, type SmtpSettings } from './mail';

/*
 * The panel's settings (table `settings`, migration 021): its name, its mail and the two-factor
 * policy. A key that is not stored falls back to the environment (APP_NAME, SMTP_URL) or to off.
 * The SMTP password is sealed with the data dir's secret box and leaves this module only to the
 * mailer, never in a view or an activity entry.
 */

const KEY = { name: 'panel_name', twoFactor: 'require_two_factor', mail: 'mail' } as const;

const storedMail = z.object({
  host: z.string(),
  port: z.int(),
  encryption: z.enum(SMTP_ENCRYPTIONS),
  username: z.nullable(z.string()),
  /** Sealed; null: none. */
  password: z.nullable(z.string()),
  from_address: z.string(),
  from_name: z.nullable(z.string()),
});
export type StoredMail = z.infer<typeof storedMail>;

export interface Settings {
  panelName: string;
  requireTwoFactor: TwoFactorLevel;
  mail: StoredMail | null;
}

function parseMail(value: string | undefined): StoredMail | null {
  if (value === undefined) return null;
  try {
    const parsed = storedMail.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The settings in force; `defaultName` is APP_NAME. */
export async function readSettings(db: Db, defaultName: string = DEFAULT_PANEL_NAME): Promise<Settings> {
  const stored = await settings.all(db);
  const level = stored.get(KEY.twoFactor);
  return {
    panelName: stored.get(KEY.name) ?? defaultName,
    requireTwoFactor: TWO_FACTOR_LEVELS.find((l) => l === level) ?? 'off',
    mail: parseMail(stored.get(KEY.mail)),
  };
}

/** Whether the policy makes this user set up two-factor authentication before anything else (the reference's middleware). */
export function mustEnrolTwoFactor(level: TwoFactorLevel, user: Pick<UserRow, 'root_admin' | 'use_totp'>): boolean {
  if (user.use_totp === 1) return false;
  return level === 'everyone' || (level === 'admins' && user.root_admin === 1);
}

/** The settings as the admin area shows them: no password, only whether one is stored. */
export function settingsView(current: Settings, environmentMail: boolean): PanelSettings {
  const { mail } = current;
  return {
    panel_name: current.panelName,
    require_two_factor: current.requireTwoFactor,
    mail: mail && {
      host: mail.host,
      port: mail.port,
      encryption: mail.encryption,
      username: mail.username,
      password_set: mail.password !== null,
      from_address: mail.from_address,
      from_name: mail.from_name,
    },
    mail_source: mail ? 'settings' : environmentMail ? 'environment' : 'none',
  };
}

function nextMail(before: StoredMail | null, input: MailSettingsInput, box: SecretBox): StoredMail {
  const password = input.password === undefined ? (before?.password ?? null) : input.password ? box.seal(input.password) : null;
  return {
    host: input.host,
    port: input.port,
    encryption: input.encryption,
    username: input.username || null,
    password,
    from_address: input.from_address,
    from_name: input.from_name || null,
  };
}

/** What an update changed, for the activity log: names, and the new value of what is no secret. */
export interface SettingsChange {
  changed: string[];
  panel_name?: string;
  require_two_factor?: TwoFactorLevel;
}

/** Applies an update; only what is given changes. */
export async function updateSettings(
  db: Db,
  box: SecretBox,
  before: Settings,
  input: SettingsUpdate,
  now: Date,
): Promise<{ after: Settings; change: SettingsChange }> {
  const writes = new Map<string, string | null>();
  const change: SettingsChange = { changed: [] };
  const after: Settings = { ...before };
  if (input.panel_name !== undefined && input.panel_name !== before.panelName) {
    writes.set(KEY.name, input.panel_name);
    after.panelName = input.panel_name;
    change.changed.push('panel_name');
    change.panel_name = input.panel_name;
  }
  if (input.require_two_factor !== undefined && input.require_two_factor !== before.requireTwoFactor) {
    writes.set(KEY.twoFactor, input.require_two_factor);
    after.requireTwoFactor = input.require_two_factor;
    change.changed.push('require_two_factor');
    change.require_two_factor = input.require_two_factor;
  }
  if (input.mail !== undefined) {
    const mail = input.mail === null ? null : nextMail(before.mail, input.mail, box);
    const fields = mailChanges(before.mail, mail, input.mail?.password !== undefined);
    if (fields.length > 0) {
      writes.set(KEY.mail, mail && JSON.stringify(mail));
      after.mail = mail;
      change.changed.push(...fields);
    }
  }
  if (writes.size > 0) await settings.write(db, writes, now.toISOString());
  return { after, change };
}

/** `mail.host`, `mail.password`, …: the mail fields that differ (a password given counts as changed). */
function mailChanges(before: StoredMail | null, after: StoredMail | null, passwordGiven: boolean): string[] {
  if (before === null && after === null) return [];
  if (before === null || after === null) return ['mail'];
  const fields = (['host', 'port', 'encryption', 'username', 'from_address', 'from_name'] as const).filter((f) => before[f] !== after[f]);
  return [...fields.map((f) => `mail.${f}`), ...(passwordGiven ? ['mail.password'] : [])];
}

/** The stored mail settings with the password opened, for the mailer; null when none are stored. */
export function smtpOf(mail: StoredMail | null, box: SecretBox): SmtpSettings | null {
  if (mail === null) return null;
  return {
    host: mail.host,
    port: mail.port,
    encryption: mail.encryption,
    username: mail.username,
    password: mail.password === null ? null : box.open(mail.password),
    fromAddress: mail.from_address,
    fromName: mail.from_name,
  };
}

/** A mailer with the panel's name in force when it was made, which its mails speak in. */
export type PanelMailer = Mailer & { readonly panelName: string };

/**
 * The mailer in force now: the stored settings, else SMTP_URL. Callers that send mail should ask
 * for it when they send, since an admin may change the settings (and the name) at any time.
 */
export async function panelMailer(db: Db, config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'appName'>, box: SecretBox): Promise<PanelMailer> {
  const settings = await readSettings(db, config.appName);
  const mailer = mailerFor(config, smtpOf(settings.mail, box));
  return { enabled: mailer.enabled, send: (message) => mailer.send(message), panelName: settings.panelName };
}
