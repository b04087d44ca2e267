import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bundles one of the panel's entry points (the admin CLI, Aerie's node) into one ES module, with
 * esbuild (which tsx brings along), for tests that start it many times: a bundled start costs a
 * fraction of tsx's, which transpiles and loads several hundred files each time. Only the native
 * modules stay outside. `outFile` must sit two folders below the repository, as the entry points'
 * own modules do, because they find the repository's files (the SPA build, the demo game) from
 * where they sit. Answers false, having warned, when bundling fails: callers fall back to tsx.
 */
export function bundleEntry(entry: string, outFile: string): boolean {
  fs.rmSync(outFile, { force: true });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      path.join(ROOT, entry),
      '--bundle',
      '--platform=node',
      '--format=esm',
      ...['better-sqlite3', '@node-rs/argon2', 'ssh2', 'cpu-features'].map((name) => `--external:${name}`),
      // For the CommonJS dependencies now inside an ES module.
      "--banner:js=import { createRequire as __aerieRequire } from 'node:module'; const require = __aerieRequire(import.meta.url);",
      `--outfile=${outFile}`,
      '--log-level=error',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status === 0) return true;
  console.warn(`could not bundle ${entry}, tsx runs it instead (${(result.stderr || String(result.error)).trim()})`);
  fs.rmSync(outFile, { force: true });
  return false;
}

/** `[program, args]` that run `entry` from its bundle when there is one, else through tsx. */
export function entryCommand(entry: string, bundle: string | undefined, args: readonly string[]): [string, string[]] {
  if (bundle && fs.existsSync(bundle)) return [process.execPath, [bundle, ...args]];
  return [path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, entry), ...args]];
}
