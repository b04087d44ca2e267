import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findPasta } from '../daemon/local/network';
import { entryCommand } from './bundle';

/*
 * Aerie's node as its own process in a network namespace of its own (issue 24 §5), as it would sit
 * on another machine: pasta forwards the node's API and SFTP ports in from the host's loopback and
 * the panel's port out to it, and nothing else the host listens on is reachable from inside.
 * Where the machine cannot (no pasta, not root, no namespaces) the node is a plain child process,
 * and the test output says so once.
 */

const execFileAsync = promisify(execFile);

/** pasta's options shared by the probe and the node: its own addresses, nothing forwarded unless said. */
function pastaArgs(inbound: number[], outbound: number[]): string[] {
  return [
    '--quiet',
    '--config-net',
    '--address',
    '10.89.0.2',
    '--netmask',
    '24',
    '--gateway',
    '10.89.0.1',
    '--no-map-gw',
    // The host's loopback only, as the node's config listens on 127.0.0.1.
    ...(inbound.length > 0 ? inbound.flatMap((port) => ['-t', `127.0.0.1/${port}`]) : ['-t', 'none']),
    '-u',
    'none',
    '-T',
    outbound.length > 0 ? outbound.join(',') : 'none',
    '-U',
    'none',
    // As root pasta would become nobody, and make the node nobody in a user namespace of its own:
    // the node stays root in the host's user namespace, as it must to sandbox its servers.
    '--runas',
    '0:0',
    '--netns-only',
  ];
}

let probe: Promise<string | null> | null = null;

/** pasta's path when it can give a process a network namespace here (asked once), else null. */
export function namespaceRunner(): Promise<string | null> {
  probe ??= (async () => {
    const pasta = findPasta();
    const why = pasta === null ? 'pasta is not installed' : process.getuid?.() !== 0 ? 'the tests do not run as root' : null;
    if (pasta !== null && why === null) {
      try {
        // Once, as the node will get it: a namespace, pasta attached, released.
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-netns-probe-')), 'netns');
        await (
          await makeNamespace(pasta, file, [], [])
        )();
        fs.rmSync(path.dirname(file), { recursive: true, force: true });
        return pasta;
      } catch (error) {
        console.warn(`Aerie's node runs as a plain child process, not in a network namespace: pasta failed (${String(error)})`);
        return null;
      }
    }
    console.warn(`Aerie's node runs as a plain child process, not in a network namespace: ${why ?? 'no pasta'}`);
    return null;
  })();
  return probe;
}

export interface NodeProcessOptions {
  config: string;
  /** The node's API and SFTP ports, reached from the host's loopback. */
  ports: number[];
  /** The panel's port, reached at 127.0.0.1 from inside. */
  panelPort: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface NodeProcess {
  child: ChildProcess;
  /** The node's process id, for nsenter. */
  pid: () => number | undefined;
  isolated: boolean;
  output: () => string;
  /** Resolves with the node's exit code. */
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
  running: () => boolean;
  /** SIGTERM, SIGKILL after `graceMs`; the exit code. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/*
 * As the daemon gives a server its network (daemon/local/network.ts): a namespace kept as a file,
 * pasta attached to it, and the node entered into it with nsenter, which execs: the node stays our
 * own child (its signals and exit code are its own) and the network is up before it calls the panel.
 */
async function makeNamespace(pasta: string, file: string, inbound: number[], outbound: number[]): Promise<() => Promise<void>> {
  const pidFile = `${file}.pid`;
  fs.writeFileSync(file, '', { mode: 0o600 });
  await execFileAsync('unshare', [`--net=${file}`, 'true']);
  // pasta returns once the namespace's network is up, and serves it in the background.
  await execFileAsync(pasta, [...pastaArgs(inbound, outbound), '--pid', pidFile, '--netns', file], { timeout: 10_000 });
  return async () => {
    let pid = 0;
    try {
      pid = Number(fs.readFileSync(pidFile, 'utf8'));
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
    // Gone before the node is started again: its forwarded ports are then free to bind.
    for (let i = 0; i < 100 && pid > 0 && alive(pid); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      // Lazy: pasta, just signalled, may still hold the file open for a moment.
      execFileSync('umount', ['--lazy', '--', file], { stdio: 'ignore' });
    } catch {
      // Not mounted.
    }
    fs.rmSync(file, { force: true });
    fs.rmSync(pidFile, { force: true });
  };
}

/**
 * `server/node-main.ts --config <file>` (from the bundle in AERIE_NODE_BUNDLE when the run made
 * one, else through tsx), in a namespace of its own where the machine allows it.
 */
export async function spawnNodeProcess(options: NodeProcessOptions): Promise<NodeProcess> {
  const [command, args] = entryCommand('server/node-main.ts', process.env.AERIE_NODE_BUNDLE, ['--config', options.config]);
  const pasta = await namespaceRunner();
  // A file of each launch's own: a restart does not wait on the last one's lazy unmount.
  const file = `${options.config}.${randomBytes(4).toString('hex')}.netns`;
  const release = pasta === null ? async () => undefined : await makeNamespace(pasta, file, options.ports, [options.panelPort]);
  const [program, programArgs] = pasta === null ? [command, args] : ['nsenter', [`--net=${file}`, '--', command, ...args]];
  // A process group of its own: tsx runs the node in a child process, which a SIGKILL must reach too.
  const child = spawn(program, programArgs, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Settles once the node has exited and its namespace is released (pasta gone, its ports free).
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))).then(async (code) => {
    await release();
    return code;
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  // SIGKILL cannot be passed on by tsx: it goes to the whole group. Other signals tsx relays to the node.
  const kill = (signal: NodeJS.Signals) => {
    if (!running() || child.pid === undefined) return;
    if (signal === 'SIGKILL') process.kill(-child.pid, signal);
    else child.kill(signal);
  };
  const stop = async (graceMs = 20_000) => {
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return { child, pid: () => child.pid, isolated: pasta !== null, output: () => output, exited, kill, running, stop };
}

/**
 * Waits until the node says its SFTP server listens (its last start-up step), then until the next
 * whole second. A node refuses tokens issued before it started (as Wings does: it forgets
 * revocations when it stops), and a token's `iat` has whole seconds: a link or console token the
 * panel signs in the second the node started counts as older than the node, and is refused.
 */
export async function nodeStarted(node: NodeProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!node.output().includes('SFTP listening')) {
    if (!node.running() || Date.now() > deadline) throw new Error(`the node did not start:\n${node.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
