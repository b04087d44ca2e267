import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import { DaemonError } from '../types';
import { setprivArgs, type HostUser } from './host-user';
import { findProgram } from '../../lib/programs';

/*
 * The sandbox a server's process runs in: bubblewrap (`bwrap`), as Wings runs one in a container.
 * The volume is the process's home at /home/container, the system's programs and libraries are
 * read-only, and it has its own /tmp, /proc, pid, ipc, uts and user namespaces, no capabilities,
 * and dies with the daemon. It sees nothing else of the host: no other volume, no data dir, no
 * panel database, and only the environment it is given (bwrap itself is started with that
 * environment alone, so not even the sandbox's pid 1 holds the panel's). Without bwrap nothing
 * runs: a tenant's process is never started unsandboxed.
 */

/** Where the volume appears inside the sandbox: the path Wings' containers use. */
export const CONTAINER_HOME = '/home/container';

/** What to install when bwrap is missing (shown in the console, the power buttons and at start-up). */
export const MISSING_BWRAP =
  'Servers cannot be started: the sandbox program bwrap is not installed on this machine. Install the Debian package "bubblewrap" (apt-get install bubblewrap) and restart the panel.';

/** Top-level system folders bound read-only (or re-created as the same links, on merged-/usr systems). */
const SYSTEM = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];
/** Of /etc, only what programs need to run, resolve names and trust certificates: no shadow file, no keys. */
const ETC = [
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'resolv.conf',
  'hosts',
  'nsswitch.conf',
  'localtime',
  'passwd',
  'group',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
];
/** The user the process runs as inside its user namespace (Wings' containers run as 988 or 1000). */
const UID = '1000';

/** The bwrap program on PATH, or null. */
export const findBwrap = (searchPath?: string): string | null => findProgram('bwrap', searchPath);

export { findProgram };

export interface SandboxSpec {
  /** The server's volume on the host (mounted read-write at CONTAINER_HOME). */
  volume: string;
  /** Where the volume appears; CONTAINER_HOME by default (an install mounts it at /mnt/server, as Wings). */
  mountAt?: string;
  /** Host files copied read-only into the sandbox (host path → path inside); opened by the daemon, so bwrap need not reach them. */
  readOnly?: Record<string, string>;
  /** The startup command, run by /bin/sh as a Wings entrypoint runs STARTUP. */
  command: string;
  /** The interpreter of `command`, a path on the host's system; /bin/sh unless said. */
  shell?: string;
  /** The whole environment the process sees. */
  env: Record<string, string>;
  /** cgroup `cgroup.procs` files the sandbox is placed in before it starts (its limits). */
  cgroupProcs?: string[];
  /** The host user the sandbox runs as (`host-user.ts`); the daemon's own when absent. */
  hostUser?: HostUser | null;
  /** The most /tmp and /dev/shm may each hold (the server's memory limit); unbounded when absent or 0. */
  tmpfsBytes?: number;
  /** A network namespace file the sandbox enters (`network.ts`); the daemon's own network when absent. */
  netns?: string;
}

/**
 * The sandbox's memory-backed places to write, /tmp and /dev/shm, each sized `bytes` (when given),
 * and its root and /dev (bwrap's own tmpfs, writable by the program otherwise, without bound)
 * read-only once everything is mounted in them. tmpfs pages are charged to the server's memory
 * group too; the size makes a full /tmp an ENOSPC for the program instead of a kill.
 */
export function scratchArgs(bytes: number | undefined): string[] {
  const size = bytes !== undefined && bytes > 0 ? ['--size', String(Math.floor(bytes))] : [];
  return [
    ...size,
    '--tmpfs',
    '/tmp',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...size,
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
  ];
}

/** bwrap reads its arguments from this descriptor, so no host path shows in the sandbox's `/proc/1/cmdline`. */
const ARGS_FD = 3;

/**
 * Writes its own pid into each `cgroup.procs` file named (their count first), then becomes bwrap:
 * the sandbox starts inside its groups, with the same pid the daemon spawned.
 */
const ENTER_CGROUPS = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@"';

/** bwrap's arguments for `spec`, the command included; `files` are the descriptors of `spec.readOnly`'s files, in order. */
export function sandboxArgs(spec: SandboxSpec, files: number[] = []): string[] {
  const args: string[] = [];
  for (const name of SYSTEM) {
    const at = `/${name}`;
    const st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(at), at);
    else if (st.isDirectory()) args.push('--ro-bind', at, at);
  }
  for (const name of ETC) args.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  const home = spec.mountAt ?? CONTAINER_HOME;
  args.push('--bind', spec.volume, home);
  for (const [i, inside] of Object.values(spec.readOnly ?? {}).entries()) {
    const fd = files[i];
    if (fd !== undefined) args.push('--perms', '0644', '--ro-bind-data', String(fd), inside);
  }
  args.push(
    ...scratchArgs(spec.tmpfsBytes),
    '--unshare-user',
    '--uid',
    UID,
    '--gid',
    UID,
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--hostname',
    'container',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--chdir',
    home,
    '--',
    spec.shell ?? '/bin/sh',
    '-c',
    spec.command,
  );
  return args;
}

/**
 * Starts `spec` in the sandbox; `unavailable` (with what to install) when bwrap is missing. The
 * chain is: a shell that enters the cgroups, `nsenter` into its network, `setpriv` to the host user, then bwrap, each exec'ing
 * the next (one pid throughout); bwrap's arguments arrive on a descriptor, the read-only files as
 * open descriptors after it.
 */
export function spawnSandboxed(spec: SandboxSpec, bwrap = findBwrap()): ChildProcessWithoutNullStreams {
  if (!bwrap) throw new DaemonError('unavailable', MISSING_BWRAP);
  const procs = spec.cgroupProcs ?? [];
  const files = Object.keys(spec.readOnly ?? {}).map((host) => fs.openSync(host, 'r'));
  try {
    const args = sandboxArgs(
      spec,
      files.map((_, i) => ARGS_FD + 1 + i),
    );
    // The options go through the descriptor; bwrap wants the command itself (the egg's, no host path) on its command line.
    const command = args.splice(args.length - 4);
    const chain = [
      ...(procs.length === 0 ? [] : ['/bin/sh', '-c', ENTER_CGROUPS, 'sh', String(procs.length), ...procs]),
      ...(spec.netns ? ['nsenter', `--net=${spec.netns}`, '--'] : []),
      ...(spec.hostUser ? ['setpriv', ...setprivArgs(spec.hostUser)] : []),
      bwrap,
      '--args',
      String(ARGS_FD),
      ...command,
    ];
    const [program = bwrap, ...rest] = chain;
    // A session of its own: Ctrl-C in the panel's terminal (SIGINT to its process group) must not
    // reach the sandbox, which the panel stops with its egg's stop command instead.
    const child = spawn(program, rest, { env: spec.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...files], detached: true });
    const argsPipe = child.stdio[ARGS_FD];
    if (!argsPipe || !('end' in argsPipe)) throw new Error('the sandbox arguments could not be passed');
    argsPipe.on('error', () => undefined); // bwrap failed before reading them: its exit says why
    argsPipe.end(args.map((arg) => `${arg}\0`).join(''));
    return child as ChildProcessWithoutNullStreams;
  } finally {
    for (const fd of files) fs.closeSync(fd);
  }
}
