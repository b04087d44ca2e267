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
