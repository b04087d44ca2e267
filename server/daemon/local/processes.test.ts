import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { outcome, testConfiguration } from '../../test/daemon-contract/support';
import type { ConsoleEvent, ServerConfiguration } from '../capabilities';
import { ServerLocks } from './locks';
import { LocalProcesses, processEnvironment, startupCommand, stopSignal } from './processes';
import { findBwrap } from './sandbox';

/*
 * The process model with the demo game in a real sandbox: start → running on the done line,
 * a command and its reply, stop by the egg's stop command or signal, kill, crashes, history.
 */

const SERVER = '0b0e7c4e-5d4a-4f36-9b7b-6f0a8f3c1d01';
const DEMO_GAME = path.join(import.meta.dirname, 'demo-game.mjs');

function demoConfiguration(patch: (c: ServerConfiguration) => void = () => undefined): ServerConfiguration {
  const c = testConfiguration(SERVER);
  c.settings.environment = { ...c.settings.environment, GAME_FILE: 'demo-game.mjs', SECRET_FROM_EGG: 'egg-value' };
  c.settings.invocation = 'node {{GAME_FILE}}';
  c.process_configuration.startup.done = ['For help, type "help"'];
  c.process_configuration.stop = { type: 'command', value: 'stop' };
  patch(c);
  return c;
}

const it = test.extend('setup', async ({ tempDir }, { onCleanup }) => {
  const volume = path.join(tempDir, 'volumes', SERVER);
  fs.mkdirSync(volume, { recursive: true });
  fs.copyFileSync(DEMO_GAME, path.join(volume, 'demo-game.mjs'));
  let configuration = demoConfiguration();
  const locks = new ServerLocks();
  const make = (options: { bwrap?: string | null; now?: () => number; stopTimeoutMs?: number } = {}) =>
    new LocalProcesses({
      logDir: path.join(tempDir, 'logs'),
      configuration: () => Promise.resolve(configuration),
      volumePath: () => volume,
      powerLock: (server, fn) => locks.power(server, fn),
      bwrap: options.bwrap === undefined ? findBwrap() : options.bwrap,
      log: () => undefined,
      now: options.now,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
    });
  const processes = make();
  const events: ConsoleEvent[] = [];
  processes.subscribe(SERVER, (e) => events.push(e));
  onCleanup(() => processes.stopAll());
  const lines = () => events.flatMap((e) => (e.type === 'console output' ? [e.line] : []));
  const states = () => events.flatMap((e) => (e.type === 'status' ? [e.state] : []));
  /** Settles once an event matching `match` has been seen. */
  const until = async (match: (e: ConsoleEvent) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!events.some(match)) {
      if (Date.now() > deadline) throw new Error(`not seen in ${ms} ms; output: ${lines().join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    processes,
    make,
    volume,
    tempDir,
    lines,
    states,
    until,
    untilState: (state: string) => until((e) => e.type === 'status' && e.state === state),
    untilLine: (text: string) => until((e) => e.type === 'console output' && e.line.includes(text)),
    configure: (patch: (c: ServerConfiguration) => void) => {
      configuration = demoConfiguration(patch);
    },
  };
});

describe('the startup command', () => {
  it('fills {{VARIABLE}}s from the environment and gives the process only a Wings-style one', () => {
    const c = demoConfiguration();
    expect(
      startupCommand('java -Xmx{{SERVER_MEMORY}}M -jar {{env.SERVER_JARFILE}} {{ UNKNOWN }}', { SERVER_MEMORY: '512', SERVER_JARFILE: 's.jar' }),
    ).toBe('java -Xmx512M -jar s.jar ');
    const env = processEnvironment(c);
    expect(env).toMatchObject({
      HOME: '/home/container',
      SERVER_PORT: '25565',
      SERVER_IP: '127.0.0.1',
      P_SERVER_UUID: SERVER,
      SECRET_FROM_EGG: 'egg-value',
    });
    expect(Object.keys(env).some((k) => k.startsWith('PANEL_') || k.startsWith('npm_'))).toBe(false);
    expect([stopSignal('^C'), stopSignal('SIGTERM'), stopSignal('term'), stopSignal('nonsense')]).toEqual([
      'SIGINT',
      'SIGTERM',
      'SIGTERM',
      'SIGTERM',
    ]);
  });
});

describe('a server process', () => {
  it('starts, runs on its done line, answers a command, and stops with its stop command', { timeout: 30_000 }, async ({ setup: s }) => {
    await s.processes.power(SERVER, 'start');
    await s.untilState('running');
    expect(s.states().slice(0, 2)).toEqual(['starting', 'running']);
    expect(s.processes.state(SERVER)).toBe('running');
    await s.processes.command(SERVER, 'say hello');
    await s.untilLine('[Server] hello');
    await s.processes.power(SERVER, 'stop');
    expect(s.processes.state(SERVER)).toBe('offline');
    expect(s.lines()).toContainEqual(expect.stringContaining('Goodbye'));
    expect(s.states()).toEqual(['starting', 'running', 'stopping', 'offline']);
    expect(s.lines().some((l) => l.includes('crashed'))).toBe(false);
    expect(await outcome(s.processes.command(SERVER, 'say again'))).toBe('offline');
    expect(await outcome(s.processes.power(SERVER, 'stop'))).toBe('offline');
  });

  it('stops by signal (^C), kills at once, and kills a server that ignores its stop', { timeout: 30_000 }, async ({ setup: s }) => {
    s.configure((c) => (c.process_configuration.stop = { type: 'signal', value: '^C' }));
    await s.processes.power(SERVER, 'start');
    await s.untilState('running');
    await s.processes.power(SERVER, 'stop');
    expect(s.lines()).toContainEqual(expect.stringContaining('Goodbye')); // it shut down cleanly on SIGINT

    await s.processes.power(SERVER, 'start');
    await s.untilLine('For help');
    await s.processes.power(SERVER, 'kill');
    expect(s.processes.state(SERVER)).toBe('offline');

    // A stop command the program does not know: the stop times out and kills it.
    s.configure((c) => (c.process_configuration.stop = { type: 'command', value: 'quit-please' }));
    const slow = s.make({ stopTimeoutMs: 500 });
    await slow.power(SERVER, 'start');
    await new Promise((r) => setTimeout(r, 1000));
    await slow.power(SERVER, 'stop');
    expect(slow.state(SERVER)).toBe('offline');
    expect(await slow.history(SERVER, 5)).toContainEqual(expect.stringContaining('did not stop in time'));
  });

  it('is running at once without done lines, and restarts with a restart', { timeout: 30_000 }, async ({ setup: s }) => {
    s.configure((c) => (c.process_configuration.startup.done = []));
    await s.processes.power(SERVER, 'start');
    expect(s.processes.state(SERVER)).toBe('running');
    await s.untilLine('For help');
    await s.processes.power(SERVER, 'restart');
    expect(s.states()).toEqual(['starting', 'running', 'stopping', 'offline', 'starting', 'running']);
  });

  it('reports a crash, restarts one that had run a minute, not one that crashed at once', { timeout: 30_000 }, async ({ setup: s }) => {
    let clock = 0;
    const processes = s.make({ now: () => clock });
    const seen: ConsoleEvent[] = [];
    processes.subscribe(SERVER, (e) => seen.push(e));
    const states = () => seen.flatMap((e) => (e.type === 'status' ? [e.state] : []));
    const waitFor = async (fn: () => boolean) => {
      for (let i = 0; i < 500 && !fn(); i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(fn()).toBe(true);
    };
    // Crashes a second after its done line.
    fs.writeFileSync(path.join(s.volume, 'crash.mjs'), 'console.log("Ready"); setTimeout(() => process.exit(3), 300);');
    s.configure((c) => {
      c.settings.invocation = 'node crash.mjs';
      c.process_configuration.startup.done = ['Ready'];
    });
    await processes.power(SERVER, 'start');
    await waitFor(() => states().filter((x) => x === 'offline').length === 1);
    expect(await processes.history(SERVER, 10)).toContainEqual(expect.stringContaining('crashed (exit code 3)'));
    expect(await processes.history(SERVER, 10)).toContainEqual(expect.stringContaining('not restarted'));

    await processes.power(SERVER, 'start');
    clock = 61_000; // it has run over a minute when it crashes
    await waitFor(() => states().filter((x) => x === 'offline').length === 2);
    await waitFor(() => states().filter((x) => x === 'starting').length === 3); // restarted
    await processes.power(SERVER, 'kill');
  });

  it('keeps a bounded history, replayed from the log file after a panel restart', { timeout: 30_000 }, async ({ setup: s }) => {
    fs.writeFileSync(path.join(s.volume, 'flood.mjs'), 'for (let i = 0; i < 2000; i++) console.log("line " + i); console.log("x".repeat(100000));');
    s.configure((c) => {
      c.settings.invocation = 'node flood.mjs';
      c.process_configuration.startup.done = [];
    });
    await s.processes.power(SERVER, 'start');
    await s.untilLine('xxxx');
    const history = await s.processes.history(SERVER, 1000);
    expect(history.length).toBeLessThanOrEqual(150);
    expect(history.at(-1)?.length).toBeLessThanOrEqual(8192);
    expect(history).toContain('line 1999');
    await new Promise((r) => setTimeout(r, 300)); // the log file is appended asynchronously
    const restarted = s.make();
    const replayed = await restarted.history(SERVER, 1000);
    expect(replayed.length).toBeLessThanOrEqual(150);
    expect(replayed).toContain('line 1999');
  });

  it('measures the memory and CPU of what runs in the sandbox, one core being 100', { timeout: 30_000 }, async ({ setup: s }) => {
    fs.writeFileSync(
      path.join(s.volume, 'busy.mjs'),
      'const keep = Buffer.alloc(64 * 1024 * 1024, 1); console.log("busy", keep.length); for (;;) {}',
    );
    s.configure((c) => {
      c.settings.invocation = 'node busy.mjs';
      c.process_configuration.startup.done = ['busy'];
    });
    await s.processes.power(SERVER, 'start');
    await s.untilState('running');
    await s.processes.resources(SERVER);
    await new Promise((r) => setTimeout(r, 1000));
    const stats = await s.processes.resources(SERVER);
    expect(stats.state).toBe('running');
    expect(stats.memory_bytes).toBeGreaterThan(64 * 1024 * 1024);
    expect(stats.memory_limit_bytes).toBe(1024 * 1024 * 1024);
    expect(stats.cpu_absolute).toBeGreaterThan(20); // a busy loop keeps one core busy (less on a loaded machine)
    expect(stats.cpu_absolute).toBeLessThan(150);
    expect(stats.uptime).toBeGreaterThanOrEqual(1000);
    await s.processes.power(SERVER, 'kill');
    expect(await s.processes.resources(SERVER)).toMatchObject({ state: 'offline', memory_bytes: 0, cpu_absolute: 0, uptime: 0 });
  });

  it('never starts without the sandbox, and says what to install', async ({ setup: s }) => {
    const unsandboxed = s.make({ bwrap: null });
    expect(await outcome(unsandboxed.power(SERVER, 'start'))).toBe('unavailable');
    expect(unsandboxed.state(SERVER)).toBe('offline');
    expect(await unsandboxed.history(SERVER, 5)).toContainEqual(expect.stringContaining('bubblewrap'));
  });
});
