import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends the panel's mail; `enabled` is false without SMTP_URL, and then nothing is sent. */
export interface Mailer {
  readonly enabled: boolean;
  send(message: MailMessage): Promise<void>;
}

/**
 * A mailer over nodemailer to SMTP_URL (`smtp://` upgrades with STARTTLS when offered, `smtps://`
 * is TLS from the start; credentials in the URL). Without SMTP_URL every send is dropped, as the
 * log says once, when the mailer is made.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, warn: (message: string) => void): Mailer {
  if (!config.smtpUrl) {
    warn('SMTP_URL is not set: password-reset mail is not sent (npm run -s panel -- user:reset-link --email E prints a link).');
    return { enabled: false, send: async () => undefined };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
  };
}

/** Mail settings stored from the admin area, the password opened (`services/panel-settings.ts`). */
export interface SmtpSettings {
  host: string;
  port: number;
  encryption: 'none' | 'starttls' | 'tls';
  username: string | null;
  password: string | null;
  fromAddress: string;
  fromName: string | null;
}

/**
 * A mailer over stored settings, which take the place of SMTP_URL and MAIL_FROM when an admin has
 * set them; otherwise the environment's mailer.
 */
export function mailerFor(
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  smtp: SmtpSettings | null,
  warn: (message: string) => void = () => undefined,
): Mailer {
  if (smtp === null) return createMailer(config, warn);
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.encryption === 'tls',
    requireTLS: smtp.encryption === 'starttls',
    ignoreTLS: smtp.encryption === 'none',
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password ?? '' } } : {}),
  });
  const from = smtp.fromName ? { name: smtp.fromName, address: smtp.fromAddress } : smtp.fromAddress;
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/**
 * What a failed send means, in words an operator can act on: nodemailer's error codes, and the
 * SMTP server's own answer where it gave one (never the password, which it does not echo).
 */
export function mailErrorMeaning(error: unknown): string {
  const err = error as { code?: unknown; responseCode?: unknown; response?: unknown; message?: unknown };
  const reply = typeof err.response === 'string' ? ` The server answered: ${err.response.slice(0, 300)}` : '';
  const message = typeof err.message === 'string' ? err.message : String(error);
  switch (err.code) {
    case 'EAUTH':
      return `The mail server refused the username or password.${reply}`;
    case 'EENVELOPE':
      return `The mail server refused the sender or the recipient address.${reply}`;
    case 'EDNS':
      return 'The mail server’s host name could not be resolved.';
    case 'ETIMEDOUT':
      return 'The mail server did not answer in time.';
    case 'ETLS':
      return `A TLS connection to the mail server could not be made (check the encryption and port).${reply}`;
    case 'ECONNECTION':
    case 'ESOCKET':
      if (/ECONNREFUSED/.test(message)) return 'Nothing accepts connections at that host and port.';
      if (/wrong version number|ssl|tls/i.test(message))
        return 'A TLS connection to the mail server could not be made (check the encryption and port).';
      return `The connection to the mail server failed: ${message}`;
    default:
      return `The mail server refused the message.${reply || ` ${message}`}`;
  }
}
