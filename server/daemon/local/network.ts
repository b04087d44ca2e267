import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DaemonError } from '../types';
import { BLOCK_FD, INFO_FD } from './sandbox';

/*
 * Each sandbox's own network, as Wings gives each container one: bwrap makes a new network
 * namespace (`--unshare-net`) and waits (`--block-fd`) while `pasta` (Debian's `passt`) attaches
 * to it from the host, rootless, as Podman does. pasta gives the namespace outbound access (NAT
 * through the host's sockets), forwards the server's allocations (TCP and UDP, from the host's
 * address and port to the same port inside), and nothing else: no gateway mapped to the host
 * (`--no-map-gw`), no automatic port forwarding either way (`-T none`, `-U none`), so the
 * namespace's 127.0.0.1 is its own and the host's loopback (the panel, SFTP, MariaDB, other
 * servers' consoles) is out of reach, except the host ports the operator lists (a database host).
 *
 * pasta runs beside the sandbox, not in it: never signalled by a stop, outside the server's
 * cgroups and its memory/CPU figures, killed when the sandbox ends, and (parent-death signal
 * through `setpriv`) when the panel dies, however it dies.
 */

/** What to install when pasta is missing (shown in the console, the power buttons and at start-up). */
export const MISSING_PASTA =
  'Servers cannot be started: the network sandbox program pasta is not installed on this machine, and servers never share the host network unless PANEL_ALLOW_HOST_NETWORK=true. Install the Debian package "passt" (apt-get install passt) and restart the panel.';

/** Said at start-up when the operator lets servers share the host network. */
export const HOST_NETWORK_WARNING =
  'PANEL_ALLOW_HOST_NETWORK=true and pasta is missing: servers share the host network (they reach the panel, SFTP, MariaDB and each other on 127.0.0.1). Install "passt" to isolate them.';

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
}

/** A program on PATH, or null. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export const findPasta = (searchPath?: string): string | null => findProgram('pasta', searchPath);

/** The daemon's network options with their defaults (pasta from PATH). */
export function networkOptions(given: Partial<NetworkOptions> = {}): NetworkOptions {
  return {
    pasta: given.pasta === undefined ? findPasta() : given.pasta,
    allowHostNetwork: given.allowHostNetwork ?? false,
    hostPorts: given.hostPorts ?? [],
  };
}

/** A server's allocations as Wings' document lists them: the default and every mapping, once each. */
export function allocationsOf(allocations: { default: Allocation; mappings: Record<string, number[]> }): Allocation[] {
  const all = [allocations.default, ...Object.entries(allocations.mappings).flatMap(([ip, ports]) => ports.map((port) => ({ ip, port })))];
  const seen = new Set<string>();
  return all.filter((a) => a.port > 0 && !seen.has(`${a.ip}/${a.port}`) && seen.add(`${a.ip}/${a.port}`));
}

/** pasta's port spec for one allocation: any address for 0.0.0.0/::, else that address only. */
function portSpec(a: Allocation): string {
  return a.ip === '' || a.ip === '0.0.0.0' || a.ip === '::' ? String(a.port) : `${a.ip}/${a.port}`;
}

/** pasta's arguments to attach to the namespace of `pid` (a process inside the sandbox). */
export function pastaArgs(plan: NetworkPlan, pid: number, pidFile: string): string[] {
  const tcp = plan.allocations.flatMap((a) => ['-t', portSpec(a)]);
  const udp = plan.allocations.flatMap((a) => ['-u', portSpec(a)]);
  const uid = process.getuid?.() ?? 0;
  const hostPorts = plan.hostPorts.length > 0 ? [...new Set(plan.hostPorts)].join(',') : 'none';
  return [
    '--foreground',
    '--quiet',
    '--config-net',
    '--no-map-gw',
    ...(tcp.length > 0 ? tcp : ['-t', 'none']),
    ...(udp.length > 0 ? udp : ['-u', 'none']),
    '-T',
    hostPorts,
    '-U',
    'none',
    '--pid',
    pidFile,
    // As root pasta would drop to nobody first, and nobody may not join the sandbox's namespaces.
    '--runas',
    `${uid}:${process.getgid?.() ?? 0}`,
    '--netns',
    `/proc/${pid}/ns/net`,
    // Root joins the network namespace directly: bwrap (run by root) moves its process into a
    // nested user namespace that does not own it. Another uid must join the owner first.
    ...(uid === 0 ? ['--netns-only'] : ['--userns', `/proc/${pid}/ns/user`]),
  ];
}

/** One sandbox's network: pasta attached to its namespace. */
export class SandboxNetwork {
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly pasta: ChildProcess,
    private readonly insidePid: number,
  ) {}

  /**
   * Attaches pasta to the namespace of the sandbox `child` (started with `isolateNetwork`), then lets
   * the sandbox run its command. Throws `unavailable` when pasta fails (an allocation in use, say).
   */
  static async attach(child: ChildProcessWithoutNullStreams, plan: NetworkPlan, pasta: string): Promise<SandboxNetwork> {
    const info = child.stdio[INFO_FD] as Readable | null | undefined;
    const block = child.stdio[BLOCK_FD] as Writable | null | undefined;
    if (!info || !block) throw new Error('the sandbox was not started with its network descriptors');
    // bwrap closes them when it ends: a reset then is no failure of the panel.
    info.on('error', () => undefined);
    block.on('error', () => undefined);
    const insidePid = await childPid(info, child);
    // Until it is let go the sandbox has no parent-death signal, and its block descriptor reads
    // end-of-file once bwrap is gone: it would run on, orphaned, if bwrap were killed meanwhile.
    let released = false;
    const orphaned = () => released || killQuietly(insidePid);
    child.once('exit', orphaned);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aerie-pasta-'));
    const pidFile = path.join(dir, 'pid');
    const proc = spawn('setpriv', ['--pdeathsig', 'KILL', '--', pasta, ...pastaArgs(plan, insidePid, pidFile)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const network = new SandboxNetwork(proc, insidePid);
    try {
      await ready(proc, pidFile);
    } catch (error) {
      // Blocked, the sandbox has no parent-death signal yet: it would run on once bwrap is gone.
      killQuietly(insidePid);
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
      fs.rmSync(dir, { recursive: true, force: true });
    }
    block.end('go');
    released = true;
    child.off('exit', orphaned);
    return network;
  }

  /** Bytes the namespace received and sent over its network interfaces (its own loopback aside). */
  counters(): { rxBytes: number; txBytes: number } {
    return readCounters(this.insidePid);
  }

  /** Ends pasta (once the sandbox is gone its forwards must go too, so a restart can bind them). */
  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => {
      if (this.pasta.exitCode !== null || this.pasta.signalCode !== null) return resolve();
      this.pasta.once('close', () => resolve());
      this.pasta.kill('SIGKILL');
    });
    return this.closed;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** The pid bwrap reports on its info descriptor (`{"child-pid": N, …}`). */
function childPid(info: Readable, child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (error?: Error, pid?: number) => {
      info.off('data', onData);
      child.off('close', onClose);
      if (pid !== undefined) resolve(pid);
      else reject(error ?? new Error('no pid'));
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (match) done(undefined, Number(match[1]));
    };
    const onClose = () => done(new DaemonError('unavailable', 'The sandbox ended before its network was set up.'));
    info.on('data', onData);
    child.on('close', onClose);
  });
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
 * Starts the sandbox (`spawnSandbox`, blocked until its network is up) and attaches its network; the sandbox is killed
 * when that fails. Without pasta, the host's network when allowed, else `unavailable`.
 */
export async function withNetwork(
  spawnSandbox: (isolateNetwork: boolean) => ChildProcessWithoutNullStreams,
  allocations: Allocation[],
  options: NetworkOptions,
): Promise<{ child: ChildProcessWithoutNullStreams; network: SandboxNetwork | null }> {
  if (!options.pasta) {
    if (!options.allowHostNetwork) throw new DaemonError('unavailable', MISSING_PASTA);
    return { child: spawnSandbox(false), network: null };
  }
  const child = spawnSandbox(true);
  try {
    return { child, network: await SandboxNetwork.attach(child, { allocations, hostPorts: options.hostPorts }, options.pasta) };
  } catch (error) {
    // Gone before the caller removes its cgroups.
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    throw error;
  }
}
