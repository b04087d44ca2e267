import fs from 'node:fs';
import path from 'node:path';
import type { InstallConfiguration, ServerConfiguration } from '../capabilities';
import { ownVolume, type HostUser } from './host-user';
import { readLines } from './line-reader';
import { networkFor, type NetworkOptions, type SandboxNetwork } from './network';
import { processEnvironment } from './process-config';
import { spawnSandboxed } from './sandbox';

/*
 * A server's install script, run as Wings runs it: in the same sandbox as the server, with the
 * volume at /mnt/server, the server's environment, and its output streamed line by line. There is
 * no installer image here: the egg's entrypoint (`bash`, `ash`, `sh`) runs from the node's own
 * system when it has it, and /bin/sh otherwise, which the output says.
 */

/** Where the volume appears during an install (Wings' installer container). */
export const INSTALL_MOUNT = '/mnt/server';

export interface InstallRun {
  volume: string;
  install: InstallConfiguration;
  configuration: ServerConfiguration;
  /** Host files the script may read, bound read-only at `/mnt/install/<name>`. */
  files: Record<string, string>;
  /** The sandbox program; null: none, so the install fails saying what to install. */
  bwrap: string | null;
  /** The host user the script runs as, which the volume is given to first; null: the daemon's own. */
  hostUser?: HostUser | null;
  /** Its own network namespace with outbound access (downloads), no allocations forwarded in. */
  network: NetworkOptions;
  onLine: (line: string) => void;
}

/** Runs the script to its end; true when it exited 0. */
export async function runInstallScript(run: InstallRun): Promise<boolean> {
  const readOnly = Object.fromEntries(Object.entries(run.files).map(([name, host]) => [host, `/mnt/install/${name}`]));
  const env = { ...processEnvironment(run.configuration), HOME: INSTALL_MOUNT };
  const shell = installShell(run.install.entrypoint);
  if (shell.missing) run.onLine(`This node has no ${run.install.entrypoint}: the install script runs with /bin/sh.`);
  let network: SandboxNetwork | null = null;
  let child;
  try {
    if (run.hostUser && run.bwrap) await ownVolume(run.volume, run.hostUser);
    network = await networkFor([], run.network);
    child = spawnSandboxed(
      {
        volume: run.volume,
        mountAt: INSTALL_MOUNT,
        readOnly,
        command: run.install.script,
        env,
        shell: shell.path,
        hostUser: run.hostUser,
        netns: network?.file,
      },
      run.bwrap,
    );
  } catch (error) {
    await network?.close();
    run.onLine(error instanceof Error ? error.message : String(error));
    return false;
  }
  child.stdin.end();
  const closed = [child.stdout, child.stderr].map((stream) => new Promise<void>((resolve) => readLines(stream, run.onLine, resolve)));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      run.onLine(`The install could not start: ${error.message}`);
      void network?.close();
      resolve(false);
    });
    child.on('close', (code) => void Promise.all([...closed, network?.close()]).then(() => resolve(code === 0)));
  });
}

/** The egg's entrypoint as a program of the node's system (`bash` → /bin/bash), else /bin/sh. */
export function installShell(entrypoint: string): { path: string; missing: boolean } {
  const name = entrypoint.trim();
  if (/^[a-z][a-z0-9_-]{0,31}$/i.test(name)) {
    for (const dir of ['/bin', '/usr/bin']) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return { path: candidate, missing: false };
    }
  }
  // ash (the reference's Alpine installers) is a POSIX shell, as the system's /bin/sh is.
  return { path: '/bin/sh', missing: !['sh', 'ash', '/bin/sh'].includes(name) };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
