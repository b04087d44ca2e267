import { execFile } from 'node:child_process';
import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathExists, Volume } from './confined';
import { isServerUuid } from './configurations';
import type { DaemonLog } from './events';

/*
 * Replacing a whole volume (a restore with "delete all files first") so that a crash at any moment
 * leaves the old volume or the new one, never a mix. The new tree is written into a staging folder
 * beside the volumes (`volumes/.restore-<server>`, on their file system, reached by no client path
 * and closed to the server's user), flushed to disk, and committed by renaming it to
 * `.restore-<server>.ready`. Only then is the volume renamed to `.restore-<server>.old`, the ready
 * tree renamed into its place, and the old one removed. Node cannot reach renameat2's
 * RENAME_EXCHANGE, so those names are the journal: `settle` reads them at the next start (and
 * before each replace) and rolls back an uncommitted staging folder or finishes a committed swap.
 *
 *   .restore-<s>            uncommitted: removed, the volume is untouched
 *   .restore-<s>.ready      committed: the volume goes aside (if still there), the ready tree in
 *   .restore-<s>.old        with the volume in place: the replaced tree, removed; alone: a deleted
 *                           server's, removed
 */

export type SwapStep = 'staged' | 'committed' | 'aside' | 'swapped';
/** Called as each step is reached (tests pause or fail a replace there); resolves to go on. */
export type SwapCheckpoint = (server: string, step: SwapStep) => Promise<void>;

const execFileAsync = promisify(execFile);
const LEFTOVER = /^\.restore-(.+?)(\.ready|\.old)?$/;

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, C.O_RDONLY | C.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class VolumeSwap {
  constructor(
    private readonly root: string,
    private readonly checkpoint: SwapCheckpoint = () => Promise.resolve(),
  ) {}

  private names(server: string): { volume: string; staging: string; ready: string; old: string } {
    if (!isServerUuid(server)) throw new Error(`Not a server uuid: ${server}`);
    const staging = path.join(this.root, `.restore-${server}`);
    return { volume: path.join(this.root, server), staging, ready: `${staging}.ready`, old: `${staging}.old` };
  }

  /**
   * Replaces the server's volume with the tree `fill` writes into an empty staging folder. A
   * failure before the commit removes the staging folder and leaves the volume as it was; once
   * committed, the swap is finished here, or at the next start if it cannot be.
   */
  async replace(server: string, fill: (staging: Volume) => Promise<void>): Promise<void> {
    const { volume, staging, ready } = this.names(server);
    await this.settle(server);
    await fs.mkdir(staging, 0o700);
    try {
      await fill(await Volume.open(staging));
      // The new root keeps the old one's owner and mode, as an overlay restore leaves them.
      const [was, now] = [await fs.lstat(volume), await fs.lstat(staging)];
      if (was.uid !== now.uid || was.gid !== now.gid) await fs.chown(staging, was.uid, was.gid);
      await fs.chmod(staging, was.mode & 0o7777);
      // On disk before the commit: a power cut after it must not find half-written files.
      await execFileAsync('sync', ['--file-system', staging]);
      await this.checkpoint(server, 'staged');
    } catch (error) {
      // One that cannot be removed now is at the next replace or start.
      await this.removeTree(staging).catch(() => undefined);
      throw error;
    }
    await fs.rename(staging, ready);
    await syncDirectory(this.root);
    // Committed: the files are the new ones whatever happens now. A step that fails is tried once
    // more (the sweep at the next start finishes it otherwise).
    const finish = async () => {
      await this.checkpoint(server, 'committed');
      await this.settle(server);
    };
    await finish().catch(() => this.settle(server));
  }

  /** Rolls back or finishes what a replace of the server's volume left, as the table above says. */
  async settle(server: string): Promise<void> {
    const { volume, staging, ready, old } = this.names(server);
    if (await pathExists(staging)) await this.removeTree(staging);
    if (await pathExists(ready)) {
      if (await pathExists(volume)) {
        // Left by an earlier replace whose removal failed: older than the volume, which goes now.
        if (await pathExists(old)) await this.removeTree(old);
        await fs.rename(volume, old);
        await this.checkpoint(server, 'aside');
      }
      await fs.rename(ready, volume);
      await syncDirectory(this.root);
      await this.checkpoint(server, 'swapped');
    }
    if (await pathExists(old)) await this.removeTree(old);
  }

  /** What a deleted server's replace left. */
  async drop(server: string): Promise<void> {
    const { staging, ready, old } = this.names(server);
    for (const name of [staging, ready, old]) if (await pathExists(name)) await this.removeTree(name);
  }

  /** Settles every server's leftovers (at start, before any volume is opened); failures go to `log`. */
  async sweep(log: DaemonLog): Promise<void> {
    const servers = new Set<string>();
    for (const name of await fs.readdir(this.root).catch(() => [])) {
      const server = LEFTOVER.exec(name)?.[1];
      if (server !== undefined && isServerUuid(server)) servers.add(server);
    }
    for (const server of servers) {
      await this.settle(server).catch((error: unknown) => log(`could not finish or roll back the restore of ${server}`, error));
    }
  }

  /** Removed through directory handles, links never followed, as a deleted volume is. */
  private async removeTree(at: string): Promise<void> {
    const parent = await Volume.open(await fs.realpath(this.root));
    await parent.withDir([], (dir) => parent.removeAt(dir, path.basename(at)));
  }
}
