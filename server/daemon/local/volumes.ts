import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isErrno, Volume } from './confined';
import { isServerUuid } from './configurations';
import type { DaemonLog } from './events';
import { TEMP_DIR } from './paths';
import { sweepTemporaries } from './receive-area';
import { VolumeSwap, type SwapCheckpoint } from './volume-swap';
import { DaemonError } from '../types';

const isMissing = (error: unknown): boolean => (error instanceof DaemonError && error.kind === 'not_found') || isErrno(error, 'ENOENT');

/** Where the local daemon keeps each server's volume: `<data dir>/volumes/<uuid>`, and the receive area beside them. */
export class Volumes {
  readonly root: string;
  /** Whole-volume replacement (a truncating restore), crash-safe. */
  readonly swap: VolumeSwap;
  /** The sweep of what a crash left behind; no volume is opened before it is done. */
  private swept: Promise<void> = Promise.resolve();

  constructor(dataDir: string, checkpoint?: SwapCheckpoint) {
    this.root = path.join(dataDir, 'volumes');
    this.swap = new VolumeSwap(this.root, checkpoint);
  }

  /**
   * Removes what a crash left behind: first a volume replace cut off (`volume-swap.ts`, rolled back
   * or finished), then everything in the receive area, and in each volume
   * the daemon's temporary files and staging directories (`sweepTemporaries`), each volume as a
   * write under its server's lock (`locked`), queued before any volume is opened so that every
   * write waits for it. Started once, by the process that serves the node (`LocalDaemon.sweepLeftovers`); a failure is
   * reported to `log`.
   */
  sweep(log: DaemonLog, locked: (server: string, work: () => Promise<void>) => Promise<void>): void {
    // A data dir or volume removed meanwhile has nothing left to sweep.
    const report = (what: string) => (error: unknown) => {
      if (!isMissing(error)) log(`could not remove the temporary files in ${what}`, error);
    };
    this.swept = (async () => {
      await this.swap.sweep(log);
      await this.receiveArea()
        .then((area) =>
          area.withDir([], async (dir) => {
            for (const name of await fs.readdir(dir.ref)) await area.removeAt(dir, name);
          }),
        )
        .catch(report(path.join(this.root, TEMP_DIR)));
      for (const name of (await fs.readdir(this.root).catch(() => [])).filter(isServerUuid)) {
        void locked(name, async () => sweepTemporaries(await Volume.open(this.path(name)))).catch(report(this.path(name)));
      }
    })();
  }

  /** The receive area (`receive-area.ts`), made when missing. */
  async receiveArea(): Promise<Volume> {
    await this.makeReceiveArea();
    return Volume.open(path.join(this.root, TEMP_DIR));
  }

  private async makeReceiveArea(): Promise<void> {
    await fs.mkdir(path.join(this.root, TEMP_DIR), { recursive: true, mode: 0o700 });
  }

  path(server: string): string {
    if (!isServerUuid(server)) throw new Error(`Not a server uuid: ${server}`);
    return path.join(this.root, server);
  }

  /** The server's volume for confined access; `not_found` when it is missing or not a plain directory. */
  async open(server: string): Promise<Volume> {
    const at = this.path(server);
    await this.swept;
    return Volume.open(at);
  }

  /** Idempotent. */
  async create(server: string): Promise<void> {
    await this.swept;
    // Private to the panel's user: one server's files are no business of other local accounts.
    await fs.mkdir(this.path(server), { recursive: true, mode: 0o700 });
    // Made with the volumes, so the first upload does not change what lies beside them.
    await this.makeReceiveArea();
  }

  /**
   * Removes a volume. It is first renamed aside (a rename moves a link itself, never what it
   * points at), so the server is gone at once even if removing the tree fails; the tree is then
   * removed through directory handles like any delete inside a volume, links removed and never
   * followed. A tree too deep to remove stays aside under a name no server can reach, and the
   * failure is reported to `log`. Missing is fine.
   */
  async remove(server: string, log: DaemonLog): Promise<void> {
    const aside = `.deleted-${server}-${randomBytes(4).toString('hex')}`;
    // What a restore cut off left beside it goes too, so no later start brings it back.
    await this.swap.drop(server).catch((error: unknown) => log(`could not remove the restore leftovers of ${server}`, error));
    try {
      await fs.rename(this.path(server), path.join(this.root, aside));
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return;
      throw error;
    }
    // The volumes directory itself is the operator's and may be a link (volumes on another disk).
    const parent = await Volume.open(await fs.realpath(this.root));
    await parent.withDir([], (dir) => parent.removeAt(dir, aside)).catch((error: unknown) => log(`could not remove ${aside} in ${this.root}`, error));
  }
}
