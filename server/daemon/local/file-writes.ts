import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { lstatOrNull, type Volume } from './confined';
import { copyNames, replaceableMode } from './file-rules';
import { removePart, writePart } from './parts';
import { cleanName, missing } from './paths';
import { blocksFor, replacedBytes, type Budget } from './quota';
import type { Received } from './receive-area';
import { DaemonError, type UploadPart } from '../types';

/*
 * The file operations that bring new bytes into a volume: a write, an upload, a copy. Each lands
 * under a temporary name and is renamed into place only once complete, so a refused or interrupted
 * operation leaves nothing behind. A client's body (write, upload) is received first, outside the
 * server's write lock, against a reservation (`receive-area.ts`, `quota.ts`); only the final checks
 * (the target's kind, the budget with the real size) and the rename run under the lock. A copy
 * runs under the lock throughout.
 */

/** What a write of a client's body is given by its server: a receive against its reservation, and the lock and limit to place it under. */
export interface WriteGuard {
  /** `replacing`: what the file it replaces is expected to free (`replacing()`). */
  receive(content: Buffer | Readable, maxBytes: number, replacing: number): Promise<Received>;
  place<T>(fn: (budget: Budget) => Promise<T>): Promise<T>;
}

/**
 * What replacing `name` in `parent` would free, known before a body is read (so an edit that does
 * not grow a file fits at the limit); a target that cannot be replaced is refused before the body
 * is read. Both are checked again when the file is placed.
 */
export async function replacing(vol: Volume, parent: string[], name: string): Promise<number> {
  try {
    return await vol.withDir(parent, async (dir) => {
      await replaceableMode(dir.at(name));
      return replacedBytes(await lstatOrNull(dir.at(name)));
    });
  } catch (error) {
    // A folder the write is yet to create.
    if (error instanceof DaemonError && error.kind === 'not_found') return 0;
    throw error;
  }
}

/** Creates or replaces the file `name` in `parent`, missing directories included. */
export async function writeInto(
  vol: Volume,
  parent: string[],
  name: string,
  content: Buffer | Readable,
  maxBytes: number,
  guard: WriteGuard,
): Promise<void> {
  const received = await guard.receive(content, maxBytes, await replacing(vol, parent, name));
  try {
    await guard.place((budget) => placeInto(vol, parent, name, received, budget));
  } finally {
    await received.drop();
  }
}

/** Moves a received body to `name` in `parent` (missing directories made), under the server's lock and budget. */
export function placeInto(vol: Volume, parent: string[], name: string, received: Received, budget: Budget): Promise<void> {
  return vol.withDir(
    parent,
    async (dir) => {
      const mode = await replaceableMode(dir.at(name));
      // The old content is freed by the rename, so an edit that does not grow the file fits.
      budget.credit(replacedBytes(await lstatOrNull(dir.at(name))));
      await budget.newFile(received.size);
      await received.place(dir, name, mode);
    },
    { create: true, beforeCreate: () => budget.newDirectory() },
  );
}

/** Stores every upload in `directory` under its base name, all or nothing; returns the stored names. */
export async function uploadInto(
  vol: Volume,
  directory: string[],
  files: AsyncIterable<UploadPart>,
  maxBytes: number,
  guard: WriteGuard,
): Promise<string[]> {
  // A missing folder is refused before a body is read.
  await vol.withDir(directory, async () => undefined);
  const received: { name: string; file: Received }[] = [];
  try {
    for await (const upload of files) {
      const name = cleanName(path.posix.basename(upload.filename));
      if (!name) {
        upload.stream.resume();
        throw new DaemonError('bad_request', 'The uploaded file name is not allowed.');
      }
      received.push({ name, file: await guard.receive(upload.stream, maxBytes, await replacing(vol, directory, name)) });
    }
    if (received.length === 0) throw new DaemonError('bad_request', 'No file was uploaded.');
    return await guard.place((budget) =>
      vol.withDir(directory, async (dir) => {
        // Every name and file is checked and every size charged before the first rename, so a late refusal stores nothing.
        const modes = new Map<string, number>();
        for (const { name, file } of received) {
          if (!modes.has(name)) {
            modes.set(name, await replaceableMode(dir.at(name)));
            budget.credit(replacedBytes(await lstatOrNull(dir.at(name))));
          }
          await budget.newFile(file.size);
          await file.verify();
        }
        const stored: string[] = [];
        for (const { name, file } of received) {
          await file.place(dir, name, modes.get(name) ?? 0o644);
          stored.push(name);
        }
        return stored;
      }),
    );
  } finally {
    for (const { file } of received) await file.drop();
  }
}

/** Copies the regular file `name` in `parent` next to itself under the first free copy name; returns that name. */
export async function copyWithin(vol: Volume, parent: string[], name: string, budget: Budget): Promise<string> {
  return vol.withDir(parent, async (dir) => {
    // Only regular files are copied; directories, links and special files are "not found" (Wings).
    const pre = await lstatOrNull(dir.at(name));
    if (!pre?.isFile()) throw missing();
    const source = await vol.openFileAt(dir, name, C.O_RDONLY);
    try {
      const st = await source.stat();
      if (!st.isFile()) throw missing();
      // Refused before a byte is copied; apparent size, as a copy of a sparse file is not sparse.
      await budget.ensure(blocksFor(st.size));
      const stream = source.createReadStream({ autoClose: false, start: 0 });
      const part = await writePart(vol, dir, stream, Number.MAX_SAFE_INTEGER, st.mode & 0o777, await budget.fileMeter()).finally(() =>
        stream.destroy(),
      );
      try {
        for (const candidate of copyNames(name)) {
          if (await lstatOrNull(dir.at(candidate))) continue;
          try {
            // link() never replaces: a name taken since the lstat just moves on to the next one.
            await fs.link(dir.at(part), dir.at(candidate));
            return candidate;
          } catch (error) {
            if ((error as { code?: string }).code !== 'EEXIST') throw error;
          }
        }
        throw new DaemonError('bad_request', 'Could not find a free name for the copy.');
      } finally {
        await removePart(dir, part);
      }
    } finally {
      await source.close();
    }
  });
}
