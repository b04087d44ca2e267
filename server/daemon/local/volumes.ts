import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isErrno, Volume } from './confined';
import { isServerUuid } from './configurations';
import type { DaemonLog } from './events';

/** Where the local daemon keeps each server's volume: `<data dir>/volumes/<uuid>`. */
export class Volumes {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'volumes');
  }

  path(server: string): string {
    if (!isServerUuid(server)) throw new Error(`Not a server uuid: ${server}`);
    return path.join(this.root, server);
  }

  /** The server's volume for confined access; `not_found` when it is missing or not a plain directory. */
  open(server: string): Promise<Volume> {
    return Volume.open(this.path(server));
  }

  /** Idempotent. */
  async create(server: string): Promise<void> {
    // Private to the panel's user: one server's files are no business of other local accounts.
    await fs.mkdir(this.path(server), { recursive: true, mode: 0o700 });
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
