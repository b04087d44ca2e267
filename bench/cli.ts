import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../server/lib/spa-build';

const run = promisify(execFile);
const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

/**
 * Runs the admin CLI (`npm run -s panel -- <args>`) as its own process on `dataDir`, as an
 * operator would next to a running panel, and returns the JSON object it prints last.
 */
export async function panelCli<T>(dataDir: string, args: readonly string[]): Promise<T> {
  let stdout: string;
  try {
    ({ stdout } = await run(TSX, [path.join(REPO_ROOT, 'server', 'cli.ts'), ...args], {
      cwd: REPO_ROOT,
      // A seeded fleet of a thousand servers needs as many free ports for their primary allocations.
      env: { PANEL_ALLOCATION_PORTS: '25565-35565', ...process.env, PANEL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`panel ${args[0] ?? ''} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}
