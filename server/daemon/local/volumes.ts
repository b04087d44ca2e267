import fs from 'node:fs/promises';
import path from 'node:path';
import { Volume } from './confined';
import { isServerUuid } from './configurations';

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
    await fs.mkdir(this.path(server), { recursive: true, mode: 0o755 });
  }

  /**
   * Removes a volume through directory handles, as deletes inside a volume do: a volume that is a
   * link is unlinked and links inside are removed, never followed out. Missing is fine.
   */
  async remove(server: string): Promise<void> {
    const name = path.basename(this.path(server));
    await fs.mkdir(this.root, { recursive: true, mode: 0o755 });
    // The volumes directory itself is the operator's and may be a link (volumes on another disk).
    const parent = await Volume.open(await fs.realpath(this.root));
    await parent.withDir([], (dir) => parent.removeAt(dir, name));
  }
}
