import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bundles the admin CLI once per run (esbuild, which tsx brings along): a bundled call starts in
 * about 0.5 s against about 2 s through tsx, and fixtures call it several times per test. When
 * bundling fails, fixtures fall back to `tsx server/cli.ts`.
 */
export default function globalSetup(): void {
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
