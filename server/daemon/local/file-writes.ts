import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { lstatOrNull, type Volume } from './confined';
import { copyNames, replaceableMode } from './file-rules';
import { removePart, writePart } from './parts';
import { cleanName, missing } from './paths';
import { blocksFor, replacedBytes, type Budget } from './quota';
import { DaemonError, type UploadPart } from '../types';

/*
 * The file operations that bring new bytes into a volume: a write, an upload, a copy. Each runs
 * under the server's write lock with a disk budget, lands under a temporary name and is renamed
 * into place only once complete, so a refused or interrupted operation leaves nothing behind.
 */

/** Creates or replaces the file `name` in `parent`, missing directories included. */
export async function writeInto(
  vol: Volume,
  parent: string[],
  name: string,
  content: Buffer | Readable,
  maxBytes: number,
  budget: Budget,
): Promise<void> {
  await vol.withDir(
    parent,
    async (dir) => {
      const mode = await replaceableMode(dir.at(name));
      // The old content is freed by the rename, so an edit that does not grow the file fits.
      budget.credit(replacedBytes(await lstatOrNull(dir.at(name))));
      const part = await writePart(vol, dir, content, maxBytes, mode, await budget.fileMeter());
      try {
        await fs.rename(dir.at(part), dir.at(name));
      } catch (error) {
        await removePart(dir, part);
        throw error;
      }
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
  budget: Budget,
): Promise<string[]> {
  return vol.withDir(directory, async (dir) => {
    const parts: { part: string; name: string }[] = [];
    const credited = new Set<string>();
    try {
      for await (const upload of files) {
        const name = cleanName(path.posix.basename(upload.filename));
        if (!name) {
          upload.stream.resume();
          throw new DaemonError('bad_request', 'The uploaded file name is not allowed.');
        }
        const mode = await replaceableMode(dir.at(name));
        if (!credited.has(name)) budget.credit(replacedBytes(await lstatOrNull(dir.at(name))));
        credited.add(name);
        parts.push({ part: await writePart(vol, dir, upload.stream, maxBytes, mode, await budget.fileMeter()), name });
      }
      if (parts.length === 0) throw new DaemonError('bad_request', 'No file was uploaded.');
      // Checked again for every name before the first rename, so a late refusal stores nothing.
      for (const p of parts) await replaceableMode(dir.at(p.name));
      const stored: string[] = [];
      while (parts.length) {
        const p = parts[0] as { part: string; name: string };
        await fs.rename(dir.at(p.part), dir.at(p.name));
        parts.shift();
        stored.push(p.name);
      }
      return stored;
    } catch (error) {
      for (const p of parts) await removePart(dir, p.part);
      throw error;
    }
  });
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
