import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is server/lib/spa-build.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What the SPA build is made from: a change to any of these makes dist/ stale. */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'public'];

/** Newest modification time (ms) of a file or of any file beneath a directory; 0 when absent. */
function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file only shows as a newer directory mtime
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why the SPA needs building, or null when dist/index.html is newer than every source. */
export function spaStaleReason(root = REPO_ROOT): string | null {
  const index = path.join(root, 'dist', 'index.html');
  let built: number;
  try {
    built = fs.statSync(index).mtimeMs;
  } catch {
    return 'dist/index.html is missing';
  }
  for (const source of SOURCES) {
    if (newestMtime(path.join(root, source)) > built) return `${source} changed since the last build`;
  }
  return null;
}

/*
 * Several panels may start at once from one checkout (e.g. Playwright runs on different ports),
 * and two concurrent `vite build`s into one dist/ corrupt each other. A directory lock serialises
 * them; whoever waited re-checks staleness and usually finds nothing left to do.
 */
const LOCK_STALE_MS = 5 * 60_000;

function tryLock(lockDir: string): boolean {
  try {
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (lockIsAbandoned(lockDir)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      return tryLock(lockDir);
    }
    return false;
  }
}

function lockIsAbandoned(lockDir: string): boolean {
  try {
    if (Date.now() - fs.statSync(lockDir).mtimeMs > LOCK_STALE_MS) return true;
    const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: the holder is gone. A missing pid file means it is still being written.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function runViteBuild(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Warnings and errors only: a newcomer's first start should end with the sign-in details, not a chunk table.
    const child = spawn('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`The SPA build failed (npx vite build exited with ${signal ?? code}).`));
    });
  });
}

export interface EnsureSpaOptions {
  root?: string;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * Builds the SPA into dist/ when it is missing or older than its sources; does nothing when
 * AERIE_SKIP_BUILD=1. Resolves to true when a build ran.
 */
export async function ensureSpaBuilt(options: EnsureSpaOptions = {}): Promise<boolean> {
  const root = options.root ?? REPO_ROOT;
  const log = options.log ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  if (env.AERIE_SKIP_BUILD === '1') return false;
  if (spaStaleReason(root) === null) return false;

  const lockDir = path.join(root, '.tmp', 'spa-build.lock');
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  let announced = false;
  while (!tryLock(lockDir)) {
    if (!announced) log('Waiting for another process to finish building the SPA...');
    announced = true;
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    const reason = spaStaleReason(root);
    if (reason === null) return false;
    log(`Building the SPA (${reason})...`);
    const started = Date.now();
    await runViteBuild(root);
    log(`Built the SPA in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return true;
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
