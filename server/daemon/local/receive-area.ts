import fs, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { lstatOrNull, MAX_DEPTH, type Dir, type Volume } from './confined';
import { lstatEach } from './listing';
import { fillPart, openPart, removePart } from './parts';
import type { Meter } from './quota';
import { DaemonError } from '../types';

/*
 * The receive area: a client's body (a write, an upload) is received outside the server's write
 * lock into `<volumes>/.aerie-tmp`, beside the volumes (so on their file system, and the move into
 * place is one atomic rename), where neither a client path nor the server's own process can reach
 * it, and moved to its name with one rename under the lock. A daemon starting removes whatever a
 * crash left there (`Volumes.sweep`).
 */

/** A body received into the receive area, its handle kept open until it is placed or dropped. */
export class Received {
  private constructor(
    private readonly area: Dir,
    private readonly part: string,
    private readonly handle: FileHandle,
    private length: number,
  ) {}

  private placed = false;

  get size(): number {
    return this.length;
  }

  /**
   * An empty body to be written piece by piece at any offset (an SFTP upload, whose chunks may
   * arrive out of order); `meter` is charged the growth of the file before each piece is written.
   */
  static async start(areaVol: Volume): Promise<Received> {
    const area = await areaVol.openDir([]);
    try {
      const { part, handle } = await openPart(areaVol, area, 0o600);
      return new Received(area, part, handle, 0);
    } catch (error) {
      await area.close();
      throw error;
    }
  }

  /** Writes `data` at `position` (`start`ed bodies); the file's growth is charged to `meter` first. */
  async writeAt(data: Uint8Array, position: number, meter: Meter, maxBytes: number): Promise<void> {
    const end = position + data.length;
    if (end > maxBytes) throw new DaemonError('too_large', 'The file is larger than the allowed size.');
    if (end > this.length) {
      // Grown before the await, so pieces written in parallel are each charged only their own growth.
      const grows = end - this.length;
      this.length = end;
      await meter(grows);
    }
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, position + done);
      done += bytesWritten;
    }
  }

  /** Receives `content` (limits as `fillPart`); a refused, failed or abandoned body leaves nothing. */
  static async receive(areaVol: Volume, content: Buffer | Readable, maxBytes: number, meter: Meter): Promise<Received> {
    const area = await areaVol.openDir([]);
    try {
      const { part, handle } = await openPart(areaVol, area, 0o600);
      try {
        return new Received(area, part, handle, await fillPart(handle, content, maxBytes, meter));
      } catch (error) {
        await handle.close().catch(() => undefined);
        await removePart(area, part);
        throw error;
      }
    } catch (error) {
      await area.close();
      throw error;
    }
  }

  /**
   * Moves the file to `name` in `dir` with permission bits `mode`, only if the name in the area
   * still holds the very file written through the handle: anything swapped in meanwhile is
   * refused (`conflict`) rather than placed.
   */
  async place(dir: Dir, name: string, mode: number): Promise<void> {
    await this.verify();
    await this.handle.chmod(mode);
    await fs.rename(this.area.at(this.part), dir.at(name));
    this.placed = true;
  }

  /** Refuses (`conflict`) unless the name in the area still holds the file written through the handle. */
  async verify(): Promise<void> {
    const [written, named] = await Promise.all([this.handle.stat(), lstatOrNull(this.area.at(this.part))]);
    if (!named?.isFile() || named.dev !== written.dev || named.ino !== written.ino) {
      throw new DaemonError('conflict', 'The uploaded file was changed on the server before it could be stored. Try again.');
    }
  }

  /** Closes the handle and removes the file if it was not placed; idempotent. */
  async drop(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    if (!this.placed) await removePart(this.area, this.part);
    await this.area.close();
  }
}

/** The names the daemon gives its own temporary files, staging and trash directories (`parts.ts`, `archive-extract.ts`). */
const LEFTOVER = /^\.aerie-(?:[0-9a-f]{16}\.part|(?:extract|replaced)-[0-9a-f]{16})$/;

/**
 * Removes the temporary files and staging directories a crash left anywhere in a volume, by their
 * exact names only (anything else, even under the reserved prefix, stays), links removed and
 * never followed. Must run under the server's write lock: the operations that make them hold it.
 */
export async function sweepTemporaries(vol: Volume): Promise<void> {
  const walk = async (dir: Dir, depth: number): Promise<void> => {
    const names = await fs.readdir(dir.ref, { encoding: 'buffer' });
    const leftovers: string[] = [];
    const subdirs: Buffer[] = [];
    await lstatEach(dir, names, (i, name, st) => {
      if (LEFTOVER.test(name)) leftovers.push(name);
      else if (st.isDirectory()) subdirs.push(names[i] as Buffer);
    });
    for (const name of leftovers) await vol.removeAt(dir, name);
    if (depth >= MAX_DEPTH) return;
    await vol.inEachChildDir(dir, subdirs, (sub) => walk(sub, depth + 1));
  };
  await vol.withDir([], (root) => walk(root, 0));
}
