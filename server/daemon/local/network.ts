import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DaemonError } from '../types';
import { alive } from './cgroup-roots';
import { findProgram } from './sandbox';

const execFileAsync = promisify(execFile);

/*
 * Each sandbox's own network, as Wings gives each container one. Before the sandbox starts, the
 * daemon makes a network namespace kept as a file (`unshare --net=<file>`, as `ip netns` does) and
 * attaches `pasta` (Debian's `passt`, Podman's network for containers) to it. pasta gives the
 * namespace outbound access (NAT through the host's sockets), forwards the server's allocations
 * (TCP and UDP, from the host's address and port to the same port inside), and nothing else: no
 * gateway mapped to the host (`--no-map-gw`), no automatic forwarding either way (`-T none`,
 * `-U none`), so the namespace's 127.0.0.1 is its own and the host's loopback (the panel, SFTP,
 * MariaDB, other servers' consoles) is out of reach, except the host ports the operator lists
 * (a database host). The sandbox then enters the namespace (`nsenter --net=<file>`) before it
 * becomes the server's user: its program holds no capability over the namespace it runs in.
 *
 * pasta runs beside the sandbox, not in it: never signalled by a stop, outside the server's
 * cgroups and its memory/CPU figures, killed when the sandbox ends, and (parent-death signal
 * through `setpriv`) when the panel dies, however it dies. Making and joining a namespace owned
 * by the host takes root, so servers get their own network when the panel runs as root (as Wings
 * does); a panel that is not root refuses to start them unless the host's network is allowed.
 */

/** What to install when pasta is missing (shown in the console, the power buttons and at start-up). */
export const MISSING_PASTA =
  'Servers cannot be started: the network sandbox program pasta is not installed on this machine, and servers never share the host network unless PANEL_ALLOW_HOST_NETWORK=true. Install the Debian package "passt" (apt-get install passt) and restart the panel.';

/** Said when a panel that is not root would start a server. */
export const NOT_ROOT =
  'Servers cannot be started: a server gets a network of its own only when the panel runs as root (as Wings does), and servers never share the host network unless PANEL_ALLOW_HOST_NETWORK=true. Run the panel as root, or allow the host network.';

/** The namespace's IPv4 address and gateway (pasta answers for the gateway; it is not the host). */
export const NAMESPACE_ADDRESS = '10.88.0.2';
const NAMESPACE_GATEWAY = '10.88.0.1';

/** What the start-up says about servers' networks on this machine, or null when each gets its own. */
export function networkWarning(allowHostNetwork: boolean, pasta = findPasta(), root = process.getuid?.() === 0): string | null {
  if (pasta && root) return null;
  const why = pasta ? 'the panel does not run as root' : 'pasta is missing (install the Debian package "passt")';
  if (!allowHostNetwork) return pasta ? NOT_ROOT : MISSING_PASTA;
  return `PANEL_ALLOW_HOST_NETWORK=true and ${why}: servers share the host network (they reach the panel, SFTP, MariaDB and each other on 127.0.0.1).`;
}

/** How long pasta may take to attach before the start fails (it takes about 40 ms). */
const ATTACH_TIMEOUT_MS = 5_000;

export interface Allocation {
  ip: string;
  port: number;
}

export interface NetworkPlan {
  /** Host addresses and ports forwarded into the namespace (TCP and UDP, same port inside). */
  allocations: Allocation[];
  /** Host loopback ports reachable from inside at 127.0.0.1 (TCP). */
  hostPorts: number[];
}

/** How a daemon gives its sandboxes a network: pasta (null when missing), and whether sharing the host's is allowed then. */
export interface NetworkOptions {
  pasta: string | null;
  allowHostNetwork: boolean;
  hostPorts: number[];
  /** Where namespace files are kept; NETNS_DIR unless said. */
  dir?: string;
}

export const findPasta = (searchPath?: string): string | null => findProgram('pasta', searchPath);

/** The daemon's network options with their defaults (pasta from PATH). */
export function networkOptions(given: Partial<NetworkOptions> = {}): NetworkOptions {
  return {
    pasta: given.pasta === undefined ? findPasta() : given.pasta,
    allowHostNetwork: given.allowHostNetwork ?? false,
    hostPorts: given.hostPorts ?? [],
    dir: given.dir,
  };
}

/** A server's allocations as Wings' document lists them: the default and every mapping, once each. */
export function allocationsOf(allocations: { default: Allocation; mappings: Record<string, number[]> }): Allocation[] {
  const all = [allocations.default, ...Object.entries(allocations.mappings).flatMap(([ip, ports]) => ports.map((port) => ({ ip, port })))];
  const seen = new Set<string>();
  return all.filter((a) => a.port > 0 && !seen.has(`${a.ip}/${a.port}`) && seen.add(`${a.ip}/${a.port}`));
}

/** pasta's port spec for one allocation: every address for 0.0.0.0/::, else that address only. */
function portSpec(a: Allocation): string {
  return a.ip === '' || a.ip === '0.0.0.0' || a.ip === '::' ? String(a.port) : `${a.ip}/${a.port}`;
}

/** pasta's arguments to attach to the namespace kept in `file`. */
export function pastaArgs(plan: NetworkPlan, file: string, pidFile: string): string[] {
  const tcp = plan.allocations.flatMap((a) => ['-t', portSpec(a)]);
  const udp = plan.allocations.flatMap((a) => ['-u', portSpec(a)]);
  const hostPorts = plan.hostPorts.length > 0 ? [...new Set(plan.hostPorts)].join(',') : 'none';
  return [
    '--foreground',
    '--quiet',
    '--config-net',
    // A private address of its own, as a Wings container has: the host's (pasta's default) would
    // make the host's own address the namespace's, so its players and services there looked local.
    '--address',
    NAMESPACE_ADDRESS,
    '--netmask',
    '24',
    '--gateway',
    NAMESPACE_GATEWAY,
    '--no-map-gw',
    ...(tcp.length > 0 ? tcp : ['-t', 'none']),
    ...(udp.length > 0 ? udp : ['-u', 'none']),
    '-T',
    hostPorts,
    '-U',
    'none',
    '--pid',
    pidFile,
    '--netns',
    file,
    '--netns-only',
    // As root pasta would become nobody before joining, and nobody may not join the host's namespace.
    '--runas',
    '0:0',
  ];
}

/** One sandbox's network: a namespace kept as a file, and pasta attached to it. */
export class SandboxNetwork {
  private closed: Promise<void> | null = null;

  private constructor(
    /** The namespace, bound to a file the sandbox enters (`nsenter --net=`). */
    readonly file: string,
    private readonly pasta: ChildProcess,
  ) {}

  /**
   * Makes a network namespace and attaches pasta to it (allocations forwarded, outbound NAT);
   * `unavailable` when that fails (an allocation in use, say), with nothing left behind.
   */
  static async create(plan: NetworkPlan, pasta: string, dir = NETNS_DIR): Promise<SandboxNetwork> {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    sequence += 1;
    const file = path.join(dir, `${process.pid}-${sequence}`);
    const pidFile = `${file}.pid`;
    try {
      fs.writeFileSync(file, '', { mode: 0o600 });
      await execFileAsync('unshare', [`--net=${file}`, 'true']);
    } catch (error) {
      await release(file);
      throw new DaemonError('unavailable', `The server's network could not be set up: ${error instanceof Error ? error.message : String(error)}`);
    }
    const proc = spawn('setpriv', ['--pdeathsig', 'KILL', '--', pasta, ...pastaArgs(plan, file, pidFile)], {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Out of the panel's process group: Ctrl-C in its terminal must not cut a stopping server's network.
      detached: true,
    });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const network = new SandboxNetwork(file, proc);
    try {
      await ready(proc, pidFile);
    } catch (error) {
      await network.close();
      const said = stderr
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('Failed to send'))
        .join(' ');
      throw new DaemonError(
        'unavailable',
        `The server's network could not be set up: ${said || (error instanceof Error ? error.message : String(error))}`,
      );
    } finally {
      fs.rmSync(pidFile, { force: true });
    }
    return network;
  }

  /** Ends pasta (its forwards go, so a restart can bind them) and the namespace. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.pasta.exitCode !== null || this.pasta.signalCode !== null) return resolve();
      this.pasta.once('close', () => resolve());
      this.pasta.kill('SIGKILL');
    }).then(() => release(this.file));
    return this.closed;
  }
}

/** Where namespaces are kept while their servers run: memory-backed, gone at reboot, root's only. */
export const NETNS_DIR = fs.existsSync('/run') ? '/run/aerie-netns' : path.join(os.tmpdir(), 'aerie-netns');
let sequence = 0;

/** Unmounts and deletes a namespace file (nothing when it is not one). */
async function release(file: string): Promise<void> {
  await execFileAsync('umount', ['--', file]).catch(() => undefined);
  fs.rmSync(file, { force: true });
}

/**
 * Releases the namespaces a panel that is gone (killed, crashed) left in `dir`: each file is
 * named after the pid of the panel that made it, and several panels may share a machine.
 */
export async function sweepNamespaces(dir = NETNS_DIR): Promise<void> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    await release(path.join(dir, name));
  }
}

/** Resolves once pasta wrote its pid file (its initialisation done); rejects when it exits or takes too long. */
function ready(proc: ChildProcess, pidFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const onExit = () => finish(new Error(`pasta exited (${proc.exitCode ?? proc.signalCode ?? 'unknown'})`));
    const timer = setInterval(() => {
      if (fs.statSync(pidFile, { throwIfNoEntry: false })?.size) finish();
      else if (Date.now() - started > ATTACH_TIMEOUT_MS) finish(new Error('pasta did not attach in time'));
    }, 2);
    const finish = (error?: Error) => {
      clearInterval(timer);
      proc.off('exit', onExit);
      proc.off('error', onExit);
      if (error) reject(error);
      else resolve();
    };
    proc.once('exit', onExit);
    proc.once('error', onExit);
  });
}

/** rx/tx bytes of every interface but loopback in the network namespace of `pid` (zeros once it is gone). */
export function readCounters(pid: number): { rxBytes: number; txBytes: number } {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/net/dev`, 'utf8');
  } catch {
    return { rxBytes: 0, txBytes: 0 };
  }
  let rxBytes = 0;
  let txBytes = 0;
  for (const line of text.split('\n').slice(2)) {
    const [name, rest] = line.split(':');
    if (rest === undefined || name === undefined || name.trim() === 'lo') continue;
    const fields = rest.trim().split(/\s+/).map(Number);
    rxBytes += fields[0] ?? 0;
    txBytes += fields[8] ?? 0;
  }
  return { rxBytes, txBytes };
}

/**
 * A network for a sandbox about to start: its own namespace when pasta is there (the sandbox
 * enters `file`), null for the host's when the operator allows it, else `unavailable`.
 */
export async function networkFor(allocations: Allocation[], options: NetworkOptions): Promise<SandboxNetwork | null> {
  if (!options.pasta) {
    if (!options.allowHostNetwork) throw new DaemonError('unavailable', MISSING_PASTA);
    return null;
  }
  if (process.getuid?.() !== 0) {
    if (!options.allowHostNetwork) throw new DaemonError('unavailable', NOT_ROOT);
    return null;
  }
  return SandboxNetwork.create({ allocations, hostPorts: options.hostPorts }, options.pasta, options.dir);
}
