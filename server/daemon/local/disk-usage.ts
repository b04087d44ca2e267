import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { MAX_DEPTH, type Dir, type Volume } from './confined';
import { lstatEach } from './listing';
import { DaemonError } from '../types';

/* What a volume holds on disk and what a write adds to it, in whole blocks (see `quota.ts`). */

/** The allocation unit writes are charged in (ext4, xfs, tmpfs); a new file or directory costs at least one. */
export const BLOCK = 4096;

export const blocksFor = (bytes: number): number => Math.ceil(bytes / BLOCK) * BLOCK;

/** Charges the bytes of one file as they are written; throws `no_space` before the limit is passed. */
export type Meter = (bytes: number) => Promise<void>;

/** What a volume holds: allocated bytes and entries (files, directories, links; each inode once). */
export interface Usage {
  bytes: number;
  entries: number;
}

/** What a server may hold (`Infinity`: no limit). */
export interface Limits {
  bytes: number;
  entries: number;
}

export const tooManyEntriesError = (max: number): DaemonError =>
  new DaemonError('no_space', `The server has too many files: it may hold at most ${max.toLocaleString('en-US')} files and folders.`);

/** What one entry takes on disk: its blocks, and at least one. */
const allocated = (st: Stats): number => Math.max(st.blocks * 512, BLOCK);

/** What regular files hold, for a measure of what an archive will read (a backup's progress). */
export const fileBytes = (st: Stats): number => (st.isFile() ? st.size : 0);

/** Usage of the volume, its root included, each inode once, links never followed; `measure` sizes each entry (its blocks by default). */
export async function measureUsage(vol: Volume, measure: (st: Stats) => number = allocated): Promise<Usage> {
  const seen = new Set<string>();
  let total = 0;
  let entries = 0;
  const walk = async (dir: Dir, depth: number): Promise<void> => {
    // Raw names: a name that is not valid UTF-8 must not hide its file from the count.
    const names = await fs.readdir(dir.ref, { encoding: 'buffer' });
    const subdirs: Buffer[] = [];
    await lstatEach(dir, names, (i, _name, st) => {
      if (st.isDirectory()) subdirs.push(names[i] as Buffer);
      else if (st.nlink > 1) {
        const key = `${st.dev}:${st.ino}`;
        if (seen.has(key)) return;
        seen.add(key);
      }
      total += measure(st);
      entries += 1;
    });
    if (subdirs.length > 0 && depth >= MAX_DEPTH) throw new DaemonError('bad_request', 'The directory tree is too deeply nested.');
    await vol.inEachChildDir(dir, subdirs, (sub) => walk(sub, depth + 1));
  };
  await vol.withDir([], async (root) => {
    total += measure(await root.handle.stat());
    entries += 1;
    await walk(root, 0);
  });
  return { bytes: total, entries };
}

export const NOTHING: Usage = Object.freeze({ bytes: 0, entries: 0 });

/** Charges `charge` one new file: its entry and first block now, further whole blocks as its bytes arrive. */
export async function fileMeter(charge: (bytes: number, entries: number) => Promise<void>): Promise<Meter> {
  await charge(BLOCK, 1);
  let size = 0;
  return async (bytes) => {
    const more = Math.max(blocksFor(size + bytes), BLOCK) - Math.max(blocksFor(size), BLOCK);
    if (more > 0) await charge(more, 0);
    size += bytes;
  };
}

/** What a replaced file gives back (its blocks, at least one): none when another name still links to it. */
export function replacedBytes(st: Stats | null): number {
  return st?.isFile() && st.nlink === 1 ? allocated(st) : 0;
}
