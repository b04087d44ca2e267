import fsc, { constants as C, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DaemonError, noSpaceError } from '../types';
import { missing } from './paths';

/*
 * On-disk half of path safety. Node has no openat(), so every
 * operation goes through a directory *handle*: on Linux `/proc/self/fd/<fd>/<name>` is looked up
 * inside the directory that fd refers to, whatever happens to the path it was opened by. A walk
 * opens one component at a time with O_DIRECTORY|O_NOFOLLOW, so a symlink anywhere in a parent
 * position is refused (even one pointing inside the volume: the simple rule is the safe one), and
 * a directory swapped for a link between two steps cannot redirect the walk. Final components are
 * opened with O_NOFOLLOW (O_NONBLOCK too, so a FIFO cannot hang a read), and every opened handle
 * is checked again through /proc/self/fd: the kernel's idea of where it lives must be inside the
 * volume. Without /proc (not Linux) the same walk runs on plain paths, which keeps the string
 * checks and O_NOFOLLOW but not the race guarantees.
 */

const HAS_PROC = process.platform === 'linux' && fsc.existsSync('/proc/self/fd');
const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
/** Deeper trees are refused by recursive operations rather than holding thousands of handles. */
export const MAX_DEPTH = 512;

/** Options of a walk that may create missing directories. */
export interface CreateOptions {
  create?: boolean;
  /** Runs before each directory the walk is about to create; a throw stops the walk (quota). */
  beforeCreate?: () => Promise<void>;
}

/** An open directory inside a volume; `at(name)` names a direct child for *at-style calls. */
export class Dir {
  constructor(
    readonly handle: FileHandle,
    readonly ref: string,
    readonly components: readonly string[],
  ) {}

  at(name: string): string {
    return `${this.ref}/${name}`;
  }

  /** A child named by raw bytes (names that are not valid UTF-8). */
  atRaw(name: Buffer): Buffer {
    return Buffer.concat([Buffer.from(`${this.ref}/`), name]);
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

export function isErrno(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && codes.includes(String((error as { code?: unknown }).code));
}

/** Whether anything (a link included, never followed) is at `at` on the host's file system. */
export async function pathExists(at: string): Promise<boolean> {
  try {
    await fs.lstat(at);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

/** Turns a file-system error into the daemon's error kinds; unknown errors stay 500s. */
export function mapFsError(error: unknown): unknown {
  if (error instanceof DaemonError) return error;
  if (isErrno(error, 'ENOENT', 'ELOOP', 'ENOTDIR')) return missing();
  if (isErrno(error, 'EISDIR')) return new DaemonError('bad_request', 'The requested path is a directory.');
  if (isErrno(error, 'EEXIST', 'ENOTEMPTY')) return new DaemonError('bad_request', 'A file or directory with that name already exists.');
  if (isErrno(error, 'ENAMETOOLONG')) return new DaemonError('bad_request', 'The file name is too long.');
  if (isErrno(error, 'ENOSPC', 'EDQUOT')) return noSpaceError();
  if (isErrno(error, 'EACCES', 'EPERM', 'EROFS')) return new DaemonError('bad_request', 'The file system refused this action.');
  if (isErrno(error, 'ENXIO', 'EAGAIN', 'ETXTBSY')) return new DaemonError('bad_request', 'The requested path is not a regular file.');
  if (isErrno(error, 'EINVAL')) return new DaemonError('bad_request', 'The requested action is not possible on this path.');
  return error;
}

export async function lstatOrNull(p: string | Buffer): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR')) return null;
    throw error;
  }
}

/** One server volume, opened by its trusted path; every client path is walked from here. */
export class Volume {
  private constructor(readonly root: string) {}

  static async open(volumePath: string): Promise<Volume> {
    const st = await fs.lstat(volumePath).catch(() => null);
    if (!st?.isDirectory()) throw missing();
    return new Volume(await fs.realpath(volumePath));
  }

  private refOf(handle: FileHandle, components: readonly string[]): string {
    return HAS_PROC ? `/proc/self/fd/${handle.fd}` : path.join(this.root, ...components);
  }

  /** Refuses a handle the kernel places outside the volume ("check the opened handle"). */
  async verify(handle: FileHandle): Promise<void> {
    if (!HAS_PROC) return;
    const where = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    if (where !== this.root && !where.startsWith(`${this.root}/`)) throw missing();
  }

  /**
   * Opens the directory at `components` (below the volume root). With `create`, missing
   * directories are made on the way; a component that is a file is `bad_request`, a link or
   * anything else missing is `not_found`.
   */
  async openDir(components: readonly string[], options: CreateOptions = {}): Promise<Dir> {
    let handle = await fs.open(this.root, DIR_FLAGS);
    try {
      for (let i = 0; i < components.length; i += 1) {
        const name = components[i] as string;
        const child = `${this.refOf(handle, components.slice(0, i))}/${name}`;
        if (options.create) {
          if (options.beforeCreate && !(await lstatOrNull(child))) await options.beforeCreate();
          try {
            await fs.mkdir(child, 0o755);
          } catch (error) {
            if (!isErrno(error, 'EEXIST')) throw mapFsError(error);
          }
        }
        let next: FileHandle;
        try {
          next = await fs.open(child, DIR_FLAGS);
        } catch (error) {
          if (options.create && isErrno(error, 'ENOTDIR') && (await lstatOrNull(child))?.isFile()) {
            throw new DaemonError('bad_request', 'A part of the path is a file, not a directory.');
          }
          throw mapFsError(error);
        }
        await handle.close();
        handle = next;
      }
      await this.verify(handle);
      return new Dir(handle, this.refOf(handle, components), components);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw mapFsError(error);
    }
  }

  /** Runs `fn` with the directory open and closes it afterwards. */
  async withDir<T>(components: readonly string[], fn: (dir: Dir) => Promise<T>, options: CreateOptions = {}): Promise<T> {
    const dir = await this.openDir(components, options);
    try {
      return await fn(dir);
    } catch (error) {
      throw mapFsError(error);
    } finally {
      await dir.close();
    }
  }

  /**
   * Runs `fn` in each of the named child directories of `dir` in turn, closing each after; one
   * swapped for a link or removed meanwhile is skipped (walks of a whole tree).
   */
  async inEachChildDir(dir: Dir, names: Buffer[], fn: (sub: Dir) => Promise<void>): Promise<void> {
    for (const name of names) {
      const sub = await this.openChildDir(dir, name).catch(() => null);
      if (!sub) continue;
      try {
        await fn(sub);
      } finally {
        await sub.close();
      }
    }
  }

  /** Opens a child directory of an open directory (no links); a raw name is for names that are not UTF-8. */
  async openChildDir(dir: Dir, name: string | Buffer): Promise<Dir> {
    const handle = await fs.open(typeof name === 'string' ? dir.at(name) : dir.atRaw(name), DIR_FLAGS);
    try {
      await this.verify(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    const components = [...dir.components, name.toString()];
    return new Dir(handle, this.refOf(handle, components), components);
  }

  /** Opens a child file of an open directory without following a link, and checks the handle. */
  async openFileAt(dir: Dir, name: string, flags: number, mode = 0o644): Promise<FileHandle> {
    const handle = await fs.open(dir.at(name), flags | C.O_NOFOLLOW | C.O_NONBLOCK, mode);
    try {
      await this.verify(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  }

  /**
   * Removes a child entry: a link or file is unlinked (never followed), a directory is emptied
   * through handles and removed. Missing entries are ignored. Names inside are read as bytes, so
   * one that is not valid UTF-8 is removed too (a raw `name` is one of those).
   */
  async removeAt(dir: Dir, name: string | Buffer, depth = 0): Promise<void> {
    const ref = typeof name === 'string' ? dir.at(name) : dir.atRaw(name);
    const st = await lstatOrNull(ref);
    if (!st) return;
    if (!st.isDirectory()) {
      await fs.unlink(ref).catch((error: unknown) => {
        if (!isErrno(error, 'ENOENT')) throw error;
      });
      return;
    }
    if (depth >= MAX_DEPTH) throw new DaemonError('bad_request', 'The directory tree is too deeply nested.');
    let sub: Dir;
    try {
      sub = await this.openChildDir(dir, name);
    } catch (error) {
      // Swapped for a link or file since the lstat: remove that instead, never what it points at.
      if (isErrno(error, 'ELOOP', 'ENOTDIR')) return this.removeAt(dir, name, depth + 1);
      if (isErrno(error, 'ENOENT')) return;
      throw error;
    }
    try {
      for (const entry of await fs.readdir(sub.ref, { encoding: 'buffer' })) await this.removeAt(sub, entry, depth + 1);
    } finally {
      await sub.close();
    }
    await fs.rmdir(ref).catch((error: unknown) => {
      if (isErrno(error, 'ENOTDIR')) return this.removeAt(dir, name, depth + 1);
      if (!isErrno(error, 'ENOENT')) throw error;
      return undefined;
    });
  }
}
