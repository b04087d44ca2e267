import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startMailCapture } from '../../server/test/mail-capture';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Starts the SMTP server the panel mails to (see playwright.config.ts), kept until the run ends,
 * and bundles the admin CLI.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const mailFile = process.env.E2E_MAIL_FILE;
  const mail = await startMailCapture({
    port: Number(process.env.E2E_MAIL_PORT),
    onMail: (m) => {
      if (mailFile) fs.appendFileSync(mailFile, `${JSON.stringify(m)}\n`);
    },
  });
  bundleCli();
  return () => mail.close();
}

/**
 * Bundles the admin CLI once per run (esbuild, which tsx brings along): a bundled call starts in
 * about 0.5 s against about 2 s through tsx, and fixtures call it several times per test. When
 * bundling fails, fixtures fall back to `tsx server/cli.ts`.
 */
function bundleCli(): void {
  const out = process.env.E2E_CLI_BUNDLE;
  if (!out) return;
  fs.rmSync(out, { force: true });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      path.join(ROOT, 'server', 'cli.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      `--outfile=${out}`,
      '--log-level=error',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    console.warn(`e2e: could not bundle the admin CLI, fixtures use tsx instead (${(result.stderr || String(result.error)).trim()})`);
    fs.rmSync(out, { force: true });
  }
}
