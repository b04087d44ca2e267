import fs from 'node:fs';
import { expect } from '@playwright/test';
import type { CapturedMail } from '../../server/test/mail-capture';

/*
 * The mail the panel really sends: global-setup.ts runs the SMTP server the panel is configured
 * with and writes each mail it receives to E2E_MAIL_FILE.
 */

/** The set-password (reset) link in the mail to `email`, once it has arrived. */
export async function mailedLink(email: string): Promise<URL> {
  let link: URL | undefined;
  await expect
    .poll(
      () => {
        const file = process.env.E2E_MAIL_FILE ?? '';
        const mails = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
        const mail = mails.map((line) => JSON.parse(line) as CapturedMail).find((m) => m.to.includes(email));
        const match = mail && /https?:\/\/\S+\/auth\/password\/reset\/\S+/.exec(mail.text);
        link = match ? new URL(match[0]) : undefined;
        return link !== undefined;
      },
      { message: `a mail with a link to ${email}` },
    )
    .toBe(true);
  return link as URL;
}
