import { constants as C, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { DaemonFileStat } from '../types';
import { lstatOrNull, type Volume } from './confined';
import { isDirectoryError, notRegularError, tooLargeError } from './file-rules';
import { missing, resolveBeneath } from './paths';
import { toFileStat } from './stat';

/*
 * The file operations that only read a volume: a whole file, a stream of one, a handle for reads
 * at any offset, one entry's stat. None takes the server's lock: a read sees a file either before
 * or after a rename places it, never half of it.
 */

/**
 * Opens a regular file beneath the volume for reading: never a link, a directory or a special
 * file (a FIFO would block), and the opened handle is checked again, not only the name.
 */
export async function openRegular(vol: Volume, file: string, maxBytes = Infinity): Promise<{ name: string; handle: FileHandle; st: Stats }> {
  const comps = resolveBeneath([], file);
  const name = comps.pop();
  if (name === undefined) throw isDirectoryError();
  return vol.withDir(comps, async (dir) => {
    const pre = await lstatOrNull(dir.at(name));
    if (!pre || pre.isSymbolicLink()) throw missing();
    if (pre.isDirectory()) throw isDirectoryError();
    if (!pre.isFile()) throw notRegularError();
    if (pre.size > maxBytes) throw tooLargeError();
    const handle = await vol.openFileAt(dir, name, C.O_RDONLY);
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw notRegularError();
      return { name, handle, st };
    } catch (error) {
      await handle.close();
      throw error;
    }
  });
}

/** A whole regular file of at most `maxBytes`. */
export async function readWhole(vol: Volume, file: string, maxBytes: number): Promise<Buffer> {
  const { handle, st } = await openRegular(vol, file, maxBytes);
  try {
    // Read one byte past the cap so a file that grew since the stat is still refused.
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw tooLargeError();
    return buf.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** A regular file as a stream of exactly its stat'ed length. */
export async function openStream(vol: Volume, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }> {
  const { name, handle, st } = await openRegular(vol, file);
  if (st.size === 0) {
    await handle.close();
    return { stat: toFileStat(name, st), stream: Readable.from([]) };
  }
  // Exactly the stat'ed length, so the body always matches Content-Length.
  return { stat: toFileStat(name, st), stream: handle.createReadStream({ start: 0, end: st.size - 1, autoClose: true }) };
}

/** One entry, never followed: the volume root, or a file, directory or link itself (SFTP's stat). */
export async function statEntry(vol: Volume, file: string): Promise<Stats> {
  const comps = resolveBeneath([], file);
  const name = comps.pop();
  if (name === undefined) return vol.withDir([], (dir) => dir.handle.stat());
  return vol.withDir(comps, async (dir) => {
    const st = await lstatOrNull(dir.at(name));
    if (!st) throw missing();
    return st;
  });
}
