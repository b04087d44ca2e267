import fs from 'node:fs';
import path from 'node:path';

/** Removes the run's data dir (kept when E2E_KEEP_DATA=1, for looking at a failure). */
export default function globalTeardown(): void {
  const bundle = process.env.E2E_CLI_BUNDLE;
  if (bundle && path.basename(path.dirname(bundle)).startsWith('e2e-')) fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA === '1') return;
  // Only ever a directory this config made under .tmp/.
  if (!path.basename(dir).startsWith('e2e-') || path.basename(path.dirname(dir)) !== '.tmp') return;
  fs.rmSync(dir, { recursive: true, force: true });
}
