import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { DaemonError } from '../types';
import { findBwrap, MISSING_BWRAP, spawnSandboxed } from './sandbox';

/*
 * A real bubblewrap sandbox (CI installs the package): the demo game runs in it as a server's
 * process would, and a hostile program tries what a tenant would to reach beyond its volume.
 */

const DEMO_GAME = path.join(import.meta.dirname, 'demo-game.mjs');
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/container', SERVER_IP: '0.0.0.0', SERVER_PORT: '25566', TZ: 'UTC' };

const it = test.extend('layout', async ({ tempDir }) => {
  // A data dir as the panel lays it out: two volumes, the database beside them.
  const volume = path.join(tempDir, 'volumes', 'a');
  const other = path.join(tempDir, 'volumes', 'b');
  fs.mkdirSync(volume, { recursive: true, mode: 0o700 });
  fs.mkdirSync(other, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(other, 'secret.txt'), 'OTHER-TENANT-SECRET');
  fs.writeFileSync(path.join(tempDir, 'panel.sqlite'), 'PANEL-DATABASE-SECRET');
  return { volume, other, dataDir: tempDir };
});

/** Collects a process's output; `until(text)` settles once the output holds it. */
function watch(child: ChildProcessWithoutNullStreams) {
  let out = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const feed = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters.filter((x) => out.includes(x.text))) w.resolve();
  };
  child.stdout.on('data', feed);
  child.stderr.on('data', feed);
  return {
    output: () => out,
    exited,
    until: (text: string) =>
      new Promise<void>((resolve, reject) => {
        if (out.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exited.then(() => (out.includes(text) ? resolve() : reject(new Error(`exited without "${text}": ${out}`))));
      }),
  };
}

describe('the sandbox', () => {
  it('is there: CI installs bubblewrap, and without it nothing runs', () => {
    expect(findBwrap(), MISSING_BWRAP).not.toBeNull();
    expect(() => spawnSandboxed({ volume: '/nonexistent', command: 'true', env: ENV }, null)).toThrow(DaemonError);
    expect(() => spawnSandboxed({ volume: '/nonexistent', command: 'true', env: ENV }, null)).toThrow(/bubblewrap/);
  });

  it('runs the demo game from its volume: a Done line, answers on the console, a clean stop', { timeout: 30_000 }, async ({ layout }) => {
    fs.copyFileSync(DEMO_GAME, path.join(layout.volume, 'demo-game.mjs'));
    const child = spawnSandboxed({ volume: layout.volume, command: 'node demo-game.mjs', env: ENV });
    const game = watch(child);
    await game.until('For help, type "help"');
    expect(game.output()).toContain('\x1b[32m'); // ANSI colours
    expect(game.output()).toContain('Starting server on 0.0.0.0:25566');
    child.stdin.write('say hello from the test\n');
    await game.until('[Server] hello from the test');
    child.stdin.write('stop\n');
    expect(await game.exited).toBe(0);
    // It wrote its world where it runs: the volume.
    expect(JSON.parse(fs.readFileSync(path.join(layout.volume, 'world', 'level.json'), 'utf8'))).toHaveProperty('saved');
  });

  it('keeps a hostile program inside its volume', { timeout: 30_000 }, async ({ layout }) => {
    process.env.AERIE_SANDBOX_TEST_SECRET = 'PANEL-ENVIRONMENT-SECRET';
    try {
      const hostile = `
        import fs from 'node:fs';
        const attempt = (what, fn) => { try { const r = fn(); console.log(what + ' OPEN ' + String(r)); } catch (e) { console.log(what + ' DENIED ' + e.code); } };
        attempt('other-volume', () => fs.readFileSync(${JSON.stringify(path.join(layout.other, 'secret.txt'))}, 'utf8'));
        attempt('other-volume-relative', () => fs.readFileSync('../b/secret.txt', 'utf8'));
        attempt('database', () => fs.readFileSync(${JSON.stringify(path.join(layout.dataDir, 'panel.sqlite'))}, 'utf8'));
        attempt('database-relative', () => fs.readFileSync('../../panel.sqlite', 'utf8'));
        attempt('repository', () => fs.readdirSync(${JSON.stringify(process.cwd())}).join(','));
        attempt('shadow', () => fs.readFileSync('/etc/shadow', 'utf8'));
        attempt('write-usr', () => fs.writeFileSync('/usr/evil', 'x'));
        attempt('write-host', () => fs.writeFileSync(${JSON.stringify(path.join(layout.dataDir, 'evil'))}, 'x'));
        for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
          try { console.log('environ-' + pid + ' ' + fs.readFileSync('/proc/' + pid + '/environ', 'utf8').replace(/\\0/g, ' ')); } catch (e) { console.log('environ-' + pid + ' DENIED ' + e.code); }
        }
        console.log('env ' + JSON.stringify(process.env));
        console.log('uid ' + process.getuid());
      `;
      fs.writeFileSync(path.join(layout.volume, 'hostile.mjs'), hostile);
      const run = watch(spawnSandboxed({ volume: layout.volume, command: 'node hostile.mjs', env: ENV }));
      expect(await run.exited).toBe(0);
      const out = run.output();
      for (const what of [
        'other-volume',
        'other-volume-relative',
        'database',
        'database-relative',
        'repository',
        'shadow',
        'write-usr',
        'write-host',
      ]) {
        expect(out).toMatch(new RegExp(`^${what} DENIED`, 'm'));
      }
      for (const secret of ['OTHER-TENANT-SECRET', 'PANEL-DATABASE-SECRET', 'PANEL-ENVIRONMENT-SECRET', 'PANEL_', 'npm_'])
        expect(out).not.toContain(secret);
      // Exactly what it was given (and the shell's PWD): nothing of the panel's environment.
      expect(JSON.parse(/^env (.*)$/m.exec(out)?.[1] ?? 'null')).toEqual({ ...ENV, PWD: '/home/container' });
      expect(out).toMatch(/^uid 1000$/m);
      expect(fs.existsSync(path.join(layout.dataDir, 'evil'))).toBe(false);
      expect(fs.readdirSync(layout.other)).toEqual(['secret.txt']);
    } finally {
      delete process.env.AERIE_SANDBOX_TEST_SECRET;
    }
  });

  // Issue 21 #5: the sandbox's root (bwrap's own tmpfs) and /dev took writes without bound, outside any size.
  it('lets the program write only its volume and the sized /tmp and /dev/shm', { timeout: 15_000 }, async ({ layout }) => {
    const script = [
      'touch /x 2>/dev/null; echo root=$?',
      'touch /dev/x 2>/dev/null; echo dev=$?',
      'head -c 2097152 /dev/zero > /tmp/f 2>/dev/null; echo tmp=$?',
      'head -c 2097152 /dev/zero > /dev/shm/f 2>/dev/null; echo shm=$?',
      'rm /tmp/f; head -c 1000 /dev/zero > /tmp/small; echo small=$?',
      'touch /home/container/x; echo home=$?',
    ].join('; ');
    const child = spawnSandboxed({ volume: layout.volume, command: script, env: ENV, tmpfsBytes: 1024 * 1024 });
    const w = watch(child);
    await w.exited;
    expect(w.output().trim().split('\n')).toEqual(['root=1', 'dev=1', 'tmp=1', 'shm=1', 'small=0', 'home=0']);
  });
});
