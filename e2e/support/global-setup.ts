import fs from 'node:fs';
import { bundleEntry } from '../../server/test/bundle';
import { startMailCapture } from '../../server/test/mail-capture';

/**
 * Starts the SMTP server the panel mails to (see playwright.config.ts), kept until the run ends,
 * and bundles the admin CLI (fixtures call it several times per test) and Aerie's node.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const mailFile = process.env.E2E_MAIL_FILE;
  const mail = await startMailCapture({
    port: Number(process.env.E2E_MAIL_PORT),
    onMail: (m) => {
      if (mailFile) fs.appendFileSync(mailFile, `${JSON.stringify(m)}\n`);
    },
  });
  // Without a bundle (bundling failed) the fixtures run tsx instead.
  if (process.env.E2E_CLI_BUNDLE) bundleEntry('server/cli.ts', process.env.E2E_CLI_BUNDLE);
  if (process.env.AERIE_NODE_BUNDLE) bundleEntry('server/node-main.ts', process.env.AERIE_NODE_BUNDLE);
  return () => mail.close();
}
