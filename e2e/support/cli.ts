import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { entryCommand } from '../../server/test/bundle';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The data dir of the panel Playwright started (set by playwright.config.ts). */
export function e2eDataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the specs through `npx playwright test`, which sets it.');
  return dir;
}

/**
 * Runs the admin CLI against the running panel's data dir and returns the JSON object it prints
 * as its last line. A failing command throws with the CLI's own message.
 */
export function runPanelCli<T = Record<string, unknown>>(args: readonly string[]): T {
  // Specs add nodes of their own (the admin pages', a second node's), some never started: a
  // server goes to the panel's own node unless its test names another, never to whichever of
  // those placement would choose at that moment.
  if (args[0] === 'server:create' && !args.includes('--node')) args = [...args, '--node', 'local'];
  let stdout: string;
  try {
    // The bundle made by global-setup.ts when there is one (same code, faster start), else tsx.
    const [command, commandArgs] = entryCommand('server/cli.ts', process.env.E2E_CLI_BUNDLE, args);
    stdout = execFileSync(command, commandArgs, {
      cwd: ROOT,
      env: { ...process.env, PANEL_DATA_DIR: e2eDataDir(), LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`panel ${args.join(' ')} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
  const last = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`panel ${args.join(' ')} printed no JSON object: ${stdout}`);
  }
}
