import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../../test/fixtures';
import { outcome, testConfiguration } from '../../test/daemon-contract/support';
import type { ConsoleEvent, ServerConfiguration } from '../capabilities';
import { ServerLocks } from './locks';
import { LocalProcesses, type ProcessOptions } from './processes';
import { processEnvironment, startupCommand, stopSignal } from './process-config';
import { cgroupRoots, limitedBy } from './cgroup-roots';
import { findBwrap } from './sandbox';
import { runInstallScript } from './installer';
import { networkOptions } from './network';
import { measureUsage } from './quota';
import { Volumes } from './volumes';
import { DEFAULT_SERVER_USER, prepareHostUser } from './host-user';

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
  // Servers run as Wings' unprivileged user when the tests run as root (CI does).
  const hostUser = prepareHostUser(DEFAULT_SERVER_USER, tempDir, path.join(tempDir, 'volumes'), (m) => {
    throw new Error(m);
  });
  const make = (
    options: Partial<
      Pick<
        ProcessOptions,
        | 'bwrap'
        | 'now'
        | 'stopTimeoutMs'
        | 'pidsLimit'
        | 'statsIntervalMs'
        | 'cgroups'
        | 'logMaxBytes'
        | 'diskBytes'
        | 'cgroupRoots'
        | 'allowUnlimited'
      >
    > = {},
  ) =>
    new LocalProcesses({
      ...options,
      logDir: path.join(tempDir, 'logs'),
      configuration: () => Promise.resolve(configuration),
      volumePath: () => volume,
      powerLock: (server, fn) => locks.power(server, fn),
      bwrap: options.bwrap === undefined ? findBwrap() : options.bwrap,
      log: () => undefined,
      stopTimeoutMs: options.stopTimeoutMs ?? 5_000,
      hostUser,
      // These tests run on machines without usable cgroups too; the limits' own tests say where they need them.
      allowUnlimited: options.allowUnlimited ?? true,
    });
  const processes = make();
  const events: ConsoleEvent[] = [];
  processes.subscribe(SERVER, (e) => events.push(e));
  onCleanup(() => processes.stopAll());
  const lines = () => events.flatMap((e) => (e.type === 'console output' ? [e.line] : []));
  const messages = () => events.flatMap((e) => (e.type === 'daemon message' ? [e.line] : []));
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
    hostUser,
    volume,
    tempDir,
    lines,
    messages,
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
  it('turns {{VARIABLE}}s into shell expansions of the environment and gives the process only a Wings-style one', () => {
    const c = demoConfiguration();
    expect(startupCommand('java -Xmx{{SERVER_MEMORY}}M -jar {{env.SERVER_JARFILE}} {{ UNKNOWN }}')).toBe(
      'java -Xmx${SERVER_MEMORY}M -jar ${SERVER_JARFILE} ${UNKNOWN}',
    );
    const env = processEnvironment(c);
    expect(env).toMatchObject({
      HOME: '/home/container',
      SERVER_PORT: String(c.settings.allocations.default.port),
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

describe('the startup command: variable values are inert text (attacks T-LEAK-3)', () => {
  it('runs none of $(…), backticks, ;, |, a newline, and leaves {{config.*}}, {{env.*}}, ${…} literal', { timeout: 30_000 }, async ({ setup: s }) => {
    fs.writeFileSync(path.join(s.volume, 'args.mjs'), 'console.log("ARGS " + JSON.stringify(process.argv.slice(2))); console.log("Ready");');
    const hostile = [
      '$(touch pwned1)',
      '`touch pwned2`',
      ';touch pwned3;',
      '|touch pwned4',
      '&&touch pwned5',
      '{{config.token}}',
      '{{SERVER_PORT}}',
      '{{ env.SECRET_FROM_EGG }}',
      '${PATH}',
      '$HOME',
      '\ntouch pwned6\n',
    ];
    s.configure((c) => {
      c.settings.environment = { ...c.settings.environment, ARG: hostile.join(' '), ARG2: 'it\'s "quoted" \\ back' };
      c.settings.invocation = 'node args.mjs {{ARG}} -- {{env.ARG2}}';
      c.process_configuration.startup.done = ['Ready'];
    });
    await s.processes.power(SERVER, 'start');
    await s.untilLine('Ready');
    await s.processes.power(SERVER, 'kill');
    const args = JSON.parse(
      s
        .lines()
        .find((l) => l.startsWith('ARGS '))
        ?.slice(5) ?? '[]',
    ) as string[];
    // Split into words as a shell splits an unquoted value, each word exactly as typed.
    expect(args).toEqual([...hostile.join(' ').split(/\s+/).filter(Boolean), '--', "it's", '"quoted"', '\\', 'back']);
    expect(fs.readdirSync(s.volume).filter((n) => n.startsWith('pwned'))).toEqual([]);
  });
  it('reaches an install script only through its environment, as text', { timeout: 30_000 }, async ({ setup: s }) => {
    const value = '$(touch pwned1) `touch pwned2`; touch pwned3 {{config.token}} ${PATH}\ntouch pwned4';
    const configuration = testConfiguration(SERVER);
    configuration.settings.environment = { ...configuration.settings.environment, ARG: value };
    const lines: string[] = [];
    const ok = await runInstallScript({
      volume: s.volume,
      install: {
        container_image: 'ghcr.io/pterodactyl/installers:alpine',
        entrypoint: 'sh',
        script: 'printf "%s" "$ARG" > /mnt/server/out.txt\necho $ARG',
      },
      configuration,
      files: {},
      bwrap: findBwrap(),
      network: networkOptions(),
      onLine: (line) => lines.push(line),
    });
    expect(ok).toBe(true);
    expect(fs.readFileSync(path.join(s.volume, 'out.txt'), 'utf8')).toBe(value);
    expect(fs.readdirSync(s.volume).filter((n) => n.startsWith('pwned'))).toEqual([]);
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

  it('stops by signal (^C, SIGTERM), kills at once, and kills a server that ignores its stop', { timeout: 30_000 }, async ({ setup: s }) => {
    // The demo game says which signal it got as it stops.
    fs.writeFileSync(
      path.join(s.volume, 'signals.mjs'),
      'for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { console.log("got " + sig); process.exit(0); }); setInterval(() => {}, 1000); console.log("Ready");',
    );
    s.configure((c) => {
      c.settings.invocation = 'node signals.mjs';
      c.process_configuration.startup.done = ['Ready'];
      c.process_configuration.stop = { type: 'signal', value: '^C' };
    });
    await s.processes.power(SERVER, 'start');
    await s.untilState('running');
    await s.processes.power(SERVER, 'stop');
    expect(s.lines()).toContain('got SIGINT'); // it shut down cleanly on ^C
    s.configure((c) => {
      c.settings.invocation = 'node signals.mjs';
      c.process_configuration.startup.done = ['Ready'];
      c.process_configuration.stop = { type: 'signal', value: 'SIGTERM' };
    });
    await s.processes.power(SERVER, 'start');
    await s.until(() => s.states().filter((state) => state === 'running').length === 2);
    await s.processes.power(SERVER, 'stop');
    expect(s.lines()).toContain('got SIGTERM');
    expect(s.messages().some((l) => l.includes('crashed'))).toBe(false);

    s.configure((c) => (c.process_configuration.stop = { type: 'signal', value: '^C' }));
    await s.processes.power(SERVER, 'start');
    await s.until(() => s.states().filter((state) => state === 'running').length === 3);
    await s.processes.power(SERVER, 'stop');
    expect(s.lines()).toContainEqual(expect.stringContaining('Goodbye')); // the demo game saves and says goodbye on SIGINT

    await s.processes.power(SERVER, 'start');
    await s.untilLine('For help');
    await s.processes.power(SERVER, 'kill');
    expect(s.processes.state(SERVER)).toBe('offline');

    // A stop command the program does not know: the stop times out and kills it.
    s.configure((c) => (c.process_configuration.stop = { type: 'command', value: 'quit-please' }));
    const slow = s.make({ stopTimeoutMs: 500 });
    const said: string[] = [];
    slow.subscribe(SERVER, (e) => e.type === 'daemon message' && said.push(e.line));
    await slow.power(SERVER, 'start');
    await new Promise((r) => setTimeout(r, 1000));
    await slow.power(SERVER, 'stop');
    expect(slow.state(SERVER)).toBe('offline');
    expect(said).toContainEqual(expect.stringContaining('did not stop in time'));
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
    const said = () => seen.flatMap((e) => (e.type === 'daemon message' ? [e.line] : []));
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
    expect(said()).toContainEqual(expect.stringContaining('crashed (exit code 3)'));
    expect(said()).toContainEqual(expect.stringContaining('not restarted'));
    // The daemon's messages are live only: the console's history is the program's own output.
    expect(await processes.history(SERVER, 10)).toEqual(['Ready']);

    await processes.power(SERVER, 'start');
    clock = 61_000; // it has run over a minute when it crashes
    await waitFor(() => states().filter((x) => x === 'offline').length === 2);
    // Restarted: its done line proves the restart's start returned and let go of the power lock
    // (a kill while that start still held it would be refused as a conflict).
    await waitFor(() => states().filter((x) => x === 'running').length === 3);
    expect(said()).toContainEqual(expect.stringContaining('Restarting it'));
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

  // Issue 21, attacks T-SBX-LINE: a program printing ~512 MiB without a newline killed the panel (RangeError: Invalid string length).
  it('survives a program that prints 600 MiB without a newline: the line is cut, the next one arrives', { timeout: 60_000 }, async ({ setup: s }) => {
    fs.writeFileSync(
      path.join(s.volume, 'endless.mjs'),
      'const mib = "x".repeat(1 << 20); let n = 0; const more = () => { while (n < 600) { n++; if (!process.stdout.write(mib)) return process.stdout.once("drain", more); } process.stdout.write("\\nafter\\n"); }; more(); setInterval(() => {}, 1000);',
    );
    s.configure((c) => {
      c.settings.invocation = 'node endless.mjs';
      c.process_configuration.startup.done = [];
    });
    await s.processes.power(SERVER, 'start');
    await s.untilLine('after');
    expect(s.lines()).toEqual(['x'.repeat(8192), 'after']);
    expect(s.processes.state(SERVER)).toBe('running');
    await s.processes.power(SERVER, 'kill');
  });

  // Issue 21, attacks T-SBX-LOG: the console log grew by 300 MiB in 15 s.
  it('bounds the console log on disk however much the program prints', { timeout: 60_000 }, async ({ setup: s }) => {
    fs.writeFileSync(
      path.join(s.volume, 'chatty.mjs'),
      'for (let i = 0; i < 100000; i++) console.log("line " + i + " " + "y".repeat(100)); console.log("end");',
    );
    s.configure((c) => {
      c.settings.invocation = 'node chatty.mjs';
      c.process_configuration.startup.done = [];
    });
    const processes = s.make({ logMaxBytes: 256 * 1024 });
    await processes.power(SERVER, 'start');
    const log = path.join(s.tempDir, 'logs', `${SERVER}.log`);
    // The file may be rotated away between two looks.
    const ended = () => {
      try {
        return fs.readFileSync(log, 'utf8').endsWith('end\n');
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 500 && !ended(); i += 1) await new Promise((r) => setTimeout(r, 20));
    const files = fs.readdirSync(path.dirname(log));
    const total = files.reduce((sum, f) => sum + fs.statSync(path.join(path.dirname(log), f)).size, 0);
    expect(files.sort()).toEqual([`${SERVER}.log`, `${SERVER}.log.1`]);
    expect(total).toBeLessThanOrEqual(512 * 1024); // 10 MiB printed
    expect(await processes.history(SERVER, 1)).toEqual(['end']);
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
    const said: ConsoleEvent[] = [];
    unsandboxed.subscribe(SERVER, (e) => said.push(e));
    expect(await outcome(unsandboxed.power(SERVER, 'start'))).toBe('unavailable');
    expect(unsandboxed.state(SERVER)).toBe('offline');
    expect(said).toEqual([{ type: 'daemon message', line: expect.stringContaining('bubblewrap') }]);
  });
});

describe('a kill during the sandbox set-up', () => {
  // A kill that lands while bwrap still sets up its namespaces left its child holding the output pipes: the kill never returned.
  it(
    'kills at once during a stop that waits for a program ignoring its stop, and during a start (issue 22 #4)',
    { timeout: 30_000 },
    async ({ setup: s }) => {
      fs.writeFileSync(path.join(s.volume, 'stubborn.mjs'), 'process.on("SIGINT", () => {}); setInterval(() => {}, 1000); console.log("Ready");');
      s.configure((c) => {
        c.settings.invocation = 'node stubborn.mjs';
        c.process_configuration.startup.done = ['Ready'];
        c.process_configuration.stop = { type: 'signal', value: '^C' };
      });
      const slow = s.make({ stopTimeoutMs: 20_000 });
      const seen: string[] = [];
      const killed: Promise<void>[] = [];
      slow.subscribe(SERVER, (e) => {
        if (e.type !== 'status') return;
        seen.push(e.state);
        // The second start: killed the moment it begins, before its sandbox exists.
        if (e.state === 'starting' && seen.filter((x) => x === 'starting').length === 2) killed.push(slow.power(SERVER, 'kill'));
      });
      const waitFor = async (fn: () => boolean) => {
        for (const deadline = Date.now() + 10_000; !fn();) {
          if (Date.now() > deadline) throw new Error(`not seen in 10 s: ${seen.join(', ')}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await slow.power(SERVER, 'start');
      await waitFor(() => seen.includes('running'));
      const stopping = slow.power(SERVER, 'stop');
      await waitFor(() => seen.includes('stopping'));
      const began = Date.now();
      await slow.power(SERVER, 'kill'); // was refused: "Another power action is currently being processed"
      await stopping;
      expect(slow.state(SERVER)).toBe('offline');
      expect(Date.now() - began).toBeLessThan(2_000);

      await slow.power(SERVER, 'start');
      expect(killed).toHaveLength(1);
      await Promise.all(killed);
      await waitFor(() => seen.filter((x) => x === 'offline').length === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(slow.state(SERVER)).toBe('offline');
    },
  );

  it('stops with its stop command a server whose stop came while its start still made the sandbox', { timeout: 30_000 }, async ({ setup: s }) => {
    const stops: Promise<void>[] = [];
    s.processes.subscribe(SERVER, (e) => {
      // Before the sandbox exists the start holds the power lock: the stop was refused with "Another power action…".
      if (e.type === 'status' && e.state === 'starting' && stops.length === 0) stops.push(s.processes.power(SERVER, 'stop'));
    });
    await s.processes.power(SERVER, 'start');
    expect(stops).toHaveLength(1);
    await Promise.all(stops);
    await s.untilLine('Goodbye');
    await s.until((e) => e.type === 'status' && e.state === 'offline');
    expect(s.lines().join('\n')).toContain('Saving worlds');
  });

  it(
    "keeps the sandbox and its network out of the panel's process group: Ctrl-C in its terminal reaches neither (issue 22 #1)",
    { timeout: 30_000 },
    async ({ setup: s }) => {
      await s.processes.power(SERVER, 'start');
      await s.untilLine('For help');
      const stat = (pid: number | string) => {
        const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [ppid = '', pgrp = ''] = text
          .slice(text.lastIndexOf(')') + 2)
          .split(' ')
          .slice(1, 3);
        return { comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), ppid: Number(ppid), pgrp: Number(pgrp) };
      };
      const ours = stat('self').pgrp;
      // This process's own children: the sandbox chain (bwrap by now) and pasta beside it.
      const children = fs
        .readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .flatMap((pid) => {
          try {
            const st = stat(pid);
            return st.ppid === process.pid ? [st] : [];
          } catch {
            return []; // gone meanwhile
          }
        });
      const sandbox = children.filter((c) => c.comm === 'bwrap');
      expect(sandbox.length).toBeGreaterThan(0);
      for (const child of children.filter((c) => c.comm === 'bwrap' || c.comm === 'pasta' || c.comm === 'pasta.avx2')) {
        expect(child.pgrp, child.comm).not.toBe(ours);
      }
      await s.processes.power(SERVER, 'kill');
    },
  );

  it('ends the server every time, however early it lands', { timeout: 60_000 }, async ({ setup: s }) => {
    for (let i = 0; i < 10; i += 1) {
      await s.processes.power(SERVER, 'start');
      const killed = s.processes.power(SERVER, 'kill');
      expect(await Promise.race([killed.then(() => 'killed'), new Promise((r) => setTimeout(() => r('hung'), 10_000))])).toBe('killed');
      expect(s.processes.state(SERVER)).toBe('offline');
    }
  });
});

describe('stats and limits', () => {
  /** A program that allocates `mib` MiB in 8 MiB steps (touching every page), says so, then waits. */
  const allocate = (volume: string, mib: number) =>
    fs.writeFileSync(
      path.join(volume, 'hungry.mjs'),
      `console.log("Ready"); const keep = []; const t = setInterval(() => { keep.push(Buffer.alloc(8 * 1024 * 1024, 1)); if (keep.length * 8 >= ${mib}) { clearInterval(t); console.log("holding " + keep.length * 8); } }, 50); setInterval(() => {}, 1000);`,
    );

  it('sends stats about every second while running, a last offline one, then none', { timeout: 30_000 }, async ({ setup: s }) => {
    const processes = s.make({ statsIntervalMs: 200 });
    const stats: { at: number; state: string; memory: number }[] = [];
    const unsubscribe = processes.subscribe(SERVER, (e) => {
      if (e.type === 'stats') stats.push({ at: Date.now(), state: e.stats.state, memory: e.stats.memory_bytes });
    });
    expect(processes.tickers).toBe(0); // offline: nothing ticks, listener or not
    await processes.power(SERVER, 'start');
    expect(processes.tickers).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    const running = stats.length;
    expect(running).toBeGreaterThanOrEqual(3);
    expect(running).toBeLessThanOrEqual(7);
    expect(stats.at(-1)).toMatchObject({ state: 'running' });
    expect(stats.at(-1)?.memory).toBeGreaterThan(0);
    await processes.power(SERVER, 'stop');
    expect(processes.tickers).toBe(0);
    await new Promise((r) => setTimeout(r, 600));
    expect(stats.slice(running).at(-1)).toMatchObject({ state: 'offline', memory: 0 });
    const after = stats.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(stats.length).toBe(after);

    // Without listeners (and no memory to watch) a running server has no ticker either.
    unsubscribe();
    await processes.power(SERVER, 'start');
    expect(processes.tickers).toBe(0);
    const again = processes.subscribe(SERVER, () => undefined);
    expect(processes.tickers).toBe(1);
    again();
    expect(processes.tickers).toBe(0);
    await processes.power(SERVER, 'kill');
  });

  it.for([
    { how: 'by the watchdog', cgroups: false },
    { how: 'by the watchdog or the cgroup limit, whichever comes first', cgroups: true },
  ])(
    'kills a server past its memory limit ($how), says why, and does not restart it as a crash',
    { timeout: 30_000 },
    async ({ cgroups }, { setup: s }) => {
      allocate(s.volume, 256);
      s.configure((c) => {
        c.settings.invocation = 'node hungry.mjs';
        c.process_configuration.startup.done = ['Ready'];
        c.settings.build.memory_limit = 64;
        c.settings.build.oom_disabled = false;
      });
      // No listener needed: the watchdog ticks for a watched server on its own.
      const processes = s.make({ statsIntervalMs: 250, cgroups });
      const seen: ConsoleEvent[] = [];
      await processes.power(SERVER, 'start');
      expect(processes.tickers).toBe(1);
      processes.subscribe(SERVER, (e) => seen.push(e));
      for (let i = 0; i < 500 && processes.state(SERVER) !== 'offline'; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(processes.state(SERVER)).toBe('offline');
      expect(processes.tickers).toBe(0);
      const said = seen.flatMap((e) => (e.type === 'daemon message' ? [e.line] : []));
      expect(said).toEqual(['Server is exceeding its memory limit of 64 MiB, stopping it.']); // once, and no crash
      expect(seen.flatMap((e) => (e.type === 'console output' ? [e.line] : []))).not.toContainEqual(expect.stringContaining('holding'));
    },
  );

  // Issue 21, attacks T-SBX-MEM: a server with its OOM killer disabled held 2 GiB against a limit of 128 MiB.
  it.runIf(limitedBy(cgroupRoots()).memory !== undefined)(
    'holds a server with its OOM killer disabled to its hard memory limit: the watchdog leaves it, the kernel does not',
    { timeout: 30_000 },
    async ({ setup: s }) => {
      allocate(s.volume, 256);
      s.configure((c) => {
        c.settings.invocation = 'node hungry.mjs';
        c.process_configuration.startup.done = ['Ready'];
        c.settings.build.memory_limit = 64;
        c.settings.build.oom_disabled = true;
      });
      const processes = s.make({ statsIntervalMs: 250 });
      const seen: ConsoleEvent[] = [];
      processes.subscribe(SERVER, (e) => seen.push(e));
      await processes.power(SERVER, 'start');
      for (let i = 0; i < 500 && processes.state(SERVER) !== 'offline'; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(processes.state(SERVER)).toBe('offline');
      expect(seen.flatMap((e) => (e.type === 'console output' ? [e.line] : []))).not.toContainEqual(expect.stringContaining('holding'));
      const said = seen.flatMap((e) => (e.type === 'daemon message' ? [e.line] : []));
      expect(said).toContainEqual(expect.stringContaining('memory limit'));
      expect(said).not.toContainEqual(expect.stringContaining('crashed'));
    },
  );

  // Issue 21, attacks T-SBX-DISK: 200 MiB written into a 20 MiB server by its own program, and a start at 10x the limit accepted.
  it(
    'stops a server whose own writes take it past its disk limit, and refuses to start it while it is over',
    { timeout: 30_000 },
    async ({ setup: s }) => {
      fs.writeFileSync(
        path.join(s.volume, 'filler.mjs'),
        'import fs from "node:fs"; console.log("Ready"); let n = 0; const t = setInterval(() => { fs.writeFileSync("fill-" + n++, Buffer.alloc(4 << 20, 1)); if (n === 10) { clearInterval(t); console.log("wrote 40 MiB"); } }, 20); process.stdin.on("data", () => process.exit(0));',
      );
      s.configure((c) => {
        c.settings.invocation = 'node filler.mjs';
        c.process_configuration.startup.done = ['Ready'];
        c.settings.build.disk_space = 20;
      });
      const volumes = new Volumes(s.tempDir);
      const processes = s.make({ statsIntervalMs: 250, diskBytes: async (server) => (await measureUsage(await volumes.open(server))).bytes });
      const seen: ConsoleEvent[] = [];
      processes.subscribe(SERVER, (e) => seen.push(e));
      await processes.power(SERVER, 'start');
      for (let i = 0; i < 500 && processes.state(SERVER) !== 'offline'; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(processes.state(SERVER)).toBe('offline');
      const said = () => seen.flatMap((e) => (e.type === 'daemon message' ? [e.line] : []));
      expect(said()).toContain('Server is exceeding its disk limit of 20 MiB, stopping it.');
      expect(said()).not.toContainEqual(expect.stringContaining('crashed'));
      // Over the limit: no start, and the console says what to do.
      expect(await outcome(processes.power(SERVER, 'start'))).toBe('no_space');
      expect(said().at(-1)).toMatch(/^This server uses \d+ MiB of its 20 MiB disk limit: delete files before starting it\.$/);
      expect(processes.state(SERVER)).toBe('offline');
    },
  );

  it.runIf(limitedBy(cgroupRoots()).pids !== undefined)(
    'caps the processes a server may run (cgroup pids.max)',
    { timeout: 30_000 },
    async ({ setup: s }) => {
      // 60 sleeps at most, whatever the limit; it says how many the kernel let it start.
      fs.writeFileSync(
        path.join(s.volume, 'forks.mjs'),
        `import { spawn } from 'node:child_process';
      let spawned = 0;
      let refused = 0;
      const settle = () => spawned + refused === 60 && console.log('spawned ' + spawned + ' refused ' + refused);
      for (let i = 0; i < 60; i += 1) {
        const child = spawn('sleep', ['5'], { stdio: 'ignore' });
        child.on('spawn', () => { spawned += 1; settle(); });
        child.on('error', () => { refused += 1; settle(); });
      }
      setInterval(() => {}, 1000);`,
      );
      s.configure((c) => {
        c.settings.invocation = 'node forks.mjs';
        c.process_configuration.startup.done = ['spawned'];
      });
      const processes = s.make({ pidsLimit: 32 });
      const seen: string[] = [];
      processes.subscribe(SERVER, (e) => e.type === 'console output' && seen.push(e.line));
      await processes.power(SERVER, 'start');
      for (let i = 0; i < 500 && processes.state(SERVER) !== 'running'; i += 1) await new Promise((r) => setTimeout(r, 20));
      const [, spawned, , refused] = (seen.find((l) => l.startsWith('spawned')) ?? '').split(' ').map(Number);
      expect(spawned).toBeGreaterThan(0);
      expect(spawned).toBeLessThan(32); // node's own threads count too
      expect(refused).toBeGreaterThan(28);
      await processes.power(SERVER, 'kill');
    },
  );
});

describe('after a panel restart', () => {
  it('starts the servers that ran at shutdown again only when configured, and forgets them either way', { timeout: 30_000 }, async ({ setup: s }) => {
    const first = s.make();
    await first.power(SERVER, 'start');
    await first.stopAll();
    expect(first.state(SERVER)).toBe('offline');
    const file = path.join(s.tempDir, 'logs', 'running.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([SERVER]);

    // Not configured: nothing starts, and the list is gone.
    const quiet = s.make();
    expect(await quiet.resume(false)).toEqual([]);
    expect(quiet.state(SERVER)).toBe('offline');
    expect(fs.existsSync(file)).toBe(false);

    const second = s.make();
    await second.power(SERVER, 'start');
    await second.stopAll();
    const restarted = s.make();
    expect(await restarted.resume(true)).toEqual([SERVER]);
    expect(restarted.state(SERVER)).not.toBe('offline');
    // Its console history says why it runs: nobody there asked for this start.
    expect(await restarted.history(SERVER, 100)).toContain('[Panel] The panel was restarted: this server was running, so it was started again.');
    expect(fs.existsSync(file)).toBe(false);
    // Once only: the next start finds nothing to resume.
    expect(await s.make().resume(true)).toEqual([]);
    await restarted.power(SERVER, 'kill');

    // A shutdown with nothing running leaves an empty list.
    await restarted.stopAll();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([]);
  });
});

describe.runIf(process.getuid?.() === 0)('the host user (attacks T-SBX-UID, T-SBX-PATHS)', () => {
  it(
    'runs the program as an unprivileged host user that owns the volume, where setuid gives nothing and no host path shows',
    { timeout: 30_000 },
    async ({ setup: s }) => {
      fs.writeFileSync(path.join(s.volume, 'panel.txt'), 'written by the panel\n'); // root's, as an upload is
      fs.writeFileSync(
        path.join(s.volume, 'probe.sh'),
        [
          'echo appended >> panel.txt && echo APPENDED',
          'echo mine > made.txt',
          'cp /usr/bin/id id-suid && chmod 4755 id-suid && echo "SUID $(./id-suid)"',
          'echo "CMDLINE $(tr "\\000" " " < /proc/1/cmdline)"',
          'echo "MOUNTS $(cut -d" " -f4,5 /proc/self/mountinfo | tr "\\n" ";")"',
          'echo PROBE DONE',
        ].join('\n'),
      );
      s.configure((c) => {
        c.settings.invocation = 'sh probe.sh';
        c.process_configuration.startup.done = [];
      });
      await s.processes.power(SERVER, 'start');
      await s.untilLine('PROBE DONE');
      const out = s.lines().join('\n');
      expect(out).toContain('APPENDED');
      expect(fs.readFileSync(path.join(s.volume, 'panel.txt'), 'utf8')).toBe('written by the panel\nappended\n');
      // On the host every file of the volume is the server user's, the setuid copy too: not root's.
      for (const name of ['made.txt', 'id-suid', 'panel.txt']) {
        const st = fs.lstatSync(path.join(s.volume, name));
        expect({ name, uid: st.uid, gid: st.gid }).toEqual({ name, uid: DEFAULT_SERVER_USER.uid, gid: DEFAULT_SERVER_USER.gid });
      }
      // Inside, the setuid bit raises nothing (no_new_privs, a nosuid mount): still uid 1000 alone.
      expect(out).toMatch(/^SUID uid=1000\(\S+\) gid=1000\(\S+\) groups=1000\(\S+\)$/m);
      expect(out).not.toMatch(/euid=/);
      // bwrap's options (the data dir, the volume) are not on pid 1's command line.
      const cmdline = /^CMDLINE (.*)$/m.exec(out)?.[1] ?? '';
      expect(cmdline).toMatch(/^\S*bwrap --args 3 -- \/bin\/sh -c sh probe\.sh $/);
      // mountinfo names the bound volume's path within its file system, as a Wings container's does
      // (/var/lib/pterodactyl/volumes/<uuid>): the one host path shown, nothing else of the data dir.
      const mounts = (/^MOUNTS (.*)$/m.exec(out)?.[1] ?? '').split(';').filter((m) => m.includes(s.tempDir));
      expect(mounts).toEqual([`${s.volume} /home/container`]);
      expect(cmdline).not.toContain(s.tempDir);
      await s.processes.power(SERVER, 'kill');
    },
  );
});
