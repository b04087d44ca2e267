import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { DaemonEvent } from '../capabilities';
import { test } from '../../test/fixtures';
import { eventually } from '../../test/game-support';
import { testConfiguration } from '../../test/daemon-contract';
import type { SwapStep } from './volume-swap';
import { ConfigurationStore } from '../../test/configuration-store';
import { LocalDaemon } from '.';

const store = new ConfigurationStore();

/*
 * A restore with "delete all files first" cut off at each step of its swap, by a process that
 * stops there for good (a crash) or by a step that fails once, and by a real process killed while
 * the old files leave the volume: the next start leaves exactly the old files or exactly the
 * backup's, never a mix, and nothing beside the volume.
 */

const SERVER = '0b7c1f0e-5d3a-4c2b-9e8f-7a6b5c4d3e21';
const OLD = { 'shared.txt': 'old', 'old-only.txt': 'only old', 'dir/old.txt': 'old, deeper' };
const SAVED = { 'shared.txt': 'saved', 'saved/a.txt': 'a', 'dir/saved.txt': 'saved, deeper' };

/** Every file below `dir`: path → content. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, tree(at, `${prefix}${entry.name}/`));
    else out[`${prefix}${entry.name}`] = fs.readFileSync(at, 'utf8');
  }
  return out;
}

function plant(volume: string, files: Record<string, string>): void {
  for (const entry of fs.readdirSync(volume)) fs.rmSync(path.join(volume, entry), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(volume, name)), { recursive: true });
    fs.writeFileSync(path.join(volume, name), content);
  }
}

/** What a restore left beside the volumes. */
const leftovers = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'volumes')).filter((name) => name.startsWith('.restore-'));

async function daemonWithBackup(dataDir: string, checkpoint?: (step: SwapStep) => Promise<void>) {
  const daemon = new LocalDaemon(dataDir, {
    configurationSource: store.source,
    log: () => undefined,
    restoreCheckpoint: checkpoint && ((_, step) => checkpoint(step)),
  });
  const events: DaemonEvent[] = [];
  daemon.events.subscribe((event) => void events.push(event));
  await store.apply(daemon, testConfiguration(SERVER));
  await daemon.servers.create(SERVER);
  const volume = daemon.volumePath(SERVER);
  plant(volume, SAVED);
  const backup = randomUUID();
  await daemon.backups.create(SERVER, backup, []);
  await eventually(() => events.some((e) => e.type === 'backup.completed' && e.successful));
  plant(volume, OLD);
  const restored = async () => {
    let found: DaemonEvent | undefined;
    await eventually(() => (found = events.find((e) => e.type === 'restore.completed')) !== undefined, 20_000);
    return found?.type === 'restore.completed' && found.successful;
  };
  return { daemon, volume, backup, restored };
}

/** The next start of the node: its sweep settles what the restore left, before any volume opens. */
async function restart(dataDir: string): Promise<void> {
  const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, log: () => undefined });
  await store.apply(daemon, testConfiguration(SERVER));
  daemon.sweepLeftovers();
  await daemon.files.list(SERVER, '/');
}

const STEPS: [SwapStep, Record<string, string>][] = [
  ['staged', OLD],
  ['committed', SAVED],
  ['aside', SAVED],
  ['swapped', SAVED],
];

describe('a truncating restore cut off mid-way', () => {
  test.for(STEPS)('a crash once %s leaves exactly one tree after the next start', async ([step, expected], { tempDir }) => {
    let reached = () => undefined as void;
    const stopped = new Promise<void>((resolve) => (reached = resolve));
    const { daemon, volume, backup } = await daemonWithBackup(tempDir, (at) => {
      if (at !== step) return Promise.resolve();
      reached();
      // The process stops here for good.
      return new Promise<void>(() => undefined);
    });
    const mode = fs.statSync(volume).mode;
    await daemon.backups.restore(SERVER, backup, { truncate: true });
    await stopped;
    if (step === 'staged') {
      // Staged beside the volume, where no path of the server leads, as closed as the volume.
      expect(tree(volume)).toEqual(OLD);
      expect(fs.statSync(path.join(tempDir, 'volumes', `.restore-${SERVER}`)).mode).toBe(mode);
    }
    await restart(tempDir);
    expect(tree(volume)).toEqual(expected);
    expect(fs.statSync(volume).mode).toBe(mode);
    expect(leftovers(tempDir)).toEqual([]);
  });

  test.for(STEPS)('a step that fails once %s leaves exactly one tree, reported as such', async ([step, expected], { tempDir }) => {
    let failed = false;
    const { daemon, volume, backup, restored } = await daemonWithBackup(tempDir, async (at) => {
      if (at !== step || failed) return;
      failed = true;
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    });
    await daemon.backups.restore(SERVER, backup, { truncate: true });
    expect(await restored()).toBe(expected === SAVED);
    expect(failed).toBe(true);
    expect(tree(volume)).toEqual(expected);
    expect(leftovers(tempDir)).toEqual([]);
  });

  test('a process killed while the old files leave the volume: the next start finishes the restore', async ({ tempDir }) => {
    const { volume, backup } = await daemonWithBackup(tempDir);
    // Many old files, so their removal takes long enough to be caught in the middle.
    const count = 2000;
    const old: Record<string, string> = {};
    for (let i = 0; i < count; i += 1) old[`old-${i}.txt`] = `old ${i}`;
    plant(volume, old);
    const script = path.join(tempDir, 'child.mts');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { LocalDaemon } from ${JSON.stringify(path.resolve('server/daemon/local/index.ts'))};
import { testConfiguration } from ${JSON.stringify(path.resolve('server/test/daemon-contract/support.ts'))};
import { ConfigurationStore } from ${JSON.stringify(path.resolve('server/test/configuration-store.ts'))};

const store = new ConfigurationStore();
const [dataDir, server, backup, count] = process.argv.slice(2);
const daemon = new LocalDaemon(dataDir, { configurationSource: store.source, log: () => undefined });
await store.apply(daemon, testConfiguration(server));
const volume = daemon.volumePath(server);
const left = () => { try { return fs.readdirSync(volume).filter((n) => n.startsWith('old-')).length; } catch { return 0; } };
// Dies the moment any old file has left the volume.
setInterval(() => { if (left() < Number(count)) process.kill(process.pid, 'SIGKILL'); }, 1);
await daemon.backups.restore(server, backup, { truncate: true });
`,
    );
    const child = spawn(path.resolve('node_modules/.bin/tsx'), [script, tempDir, SERVER, backup, String(count)], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // tsx reports its child's SIGKILL as exit code 137.
    const ended = await new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    expect(ended === 'SIGKILL' || ended === 137).toBe(true);
    await restart(tempDir);
    expect(tree(volume)).toEqual(SAVED);
    expect(leftovers(tempDir)).toEqual([]);
  }, 60_000);
});
