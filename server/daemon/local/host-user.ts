import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

/*
 * The host user servers run as. A sandbox started by a root daemon mapped the program to root on
 * the host: its files (a setuid copy of `id` included) were root's. As Wings runs containers as
 * its `pterodactyl` user, a root daemon starts each sandbox as an unprivileged uid and gid
 * (PANEL_SERVER_UID/GID, 988 by default as Wings' user; no passwd entry is needed): bwrap is
 * exec'd through util-linux's `setpriv` once the sandbox is in its cgroups, and the program,
 * still uid 1000 inside, is that uid outside. A daemon that is not root runs servers as itself.
 *
 * The volume is owned by that user before each start and install (as Wings does at boot), with
 * `chown -R -P -h`, which never follows a link (the server is not running then, and no panel path
 * makes links). The daemon's data dir and volumes folder become `root:<gid>` 0710: that group
 * may pass through them to its volume, and list or read nothing there.
 */

export interface HostUser {
  uid: number;
  gid: number;
}

/** Wings' own `pterodactyl` user's ids on a fresh node. */
export const DEFAULT_SERVER_USER: HostUser = { uid: 988, gid: 988 };

const execFileAsync = promisify(execFile);

/**
 * The user servers of a daemon rooted at `dataDir` run as: `wanted` when this process is root and
 * that user can reach `volumesRoot` (the folders on the way are opened to its group), else null
 * (servers run as this process's user, and `warn` says why when it was wanted).
 */
export function prepareHostUser(wanted: HostUser | null, dataDir: string, volumesRoot: string, warn: (message: string) => void): HostUser | null {
  if (!wanted || process.getuid?.() !== 0) return null;
  fs.mkdirSync(volumesRoot, { recursive: true, mode: 0o700 });
  for (const dir of [dataDir, volumesRoot]) {
    fs.chownSync(dir, 0, wanted.gid);
    fs.chmodSync(dir, 0o710);
  }
  const reach = spawnSync('setpriv', [...setprivArgs(wanted), 'test', '-x', volumesRoot], { stdio: 'ignore', timeout: 5000 });
  if (reach.status === 0) return wanted;
  warn(
    reach.error
      ? `Servers run as root on the host: setpriv (util-linux) could not be run (${reach.error.message}).`
      : `Servers run as root on the host: uid ${wanted.uid} cannot reach ${volumesRoot} (a folder above the data dir is closed to it); put PANEL_DATA_DIR where that user may pass.`,
  );
  return null;
}

/** setpriv's arguments that become `user` with no other group, before the program and its arguments. */
export function setprivArgs(user: HostUser): string[] {
  return [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}

/** Gives the whole volume to `user`, links themselves and never their targets. */
export async function ownVolume(volume: string, user: HostUser): Promise<void> {
  await execFileAsync('chown', ['-R', '-P', '-h', `${user.uid}:${user.gid}`, '--', volume]);
}
