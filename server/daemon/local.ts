import { constants as C, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { compressInto } from './archive-create';
import { extractInto } from './archive-extract';
import { lstatOrNull, mapFsError, Volume } from './confined';
import { copyNames, isDirectoryError, notRegularError, replaceableMode, tooLargeError } from './file-rules';
import { lstatEach } from './listing';
import { removePart, writePart } from './parts';
import { cleanName, isBelow, missing, resolveBeneath, resolveIn } from './paths';
import { BLOCK, blocksFor, DiskQuotas, replacedBytes } from './quota';
import { toFileStat } from './stat';
import { DaemonError, type Daemon, type DaemonFileStat, type ExtractLimits, type UploadPart, type WriteOptions } from './types';

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxBytes: 1024 ** 3, maxEntries: 100_000 };
/** The local daemon keeps each server's volume at `<data dir>/volumes/<uuid>`. */
export class LocalDaemon implements Daemon {
  readonly volumesDir: string;
  /** Caps for decompress; tests and operators may lower them. */
  extractLimits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS };
  /** Disk limits: usage cache and per-server write queue. */
  readonly quotas = new DiskQuotas();

  constructor(dataDir: string) {
    this.volumesDir = path.join(dataDir, 'volumes');
  }

  volumePath(serverUuid: string): string {
    if (!/^[0-9a-f-]{36}$/.test(serverUuid)) throw new Error(`Not a server uuid: ${serverUuid}`);
    return path.join(this.volumesDir, serverUuid);
  }

  async createVolume(serverUuid: string): Promise<void> {
    await fs.mkdir(this.volumePath(serverUuid), { recursive: true, mode: 0o755 });
  }

  private volume(serverUuid: string): Promise<Volume> {
    return Volume.open(this.volumePath(serverUuid));
  }

  async listDirectory(serverUuid: string, directory: string): Promise<DaemonFileStat[]> {
    const vol = await this.volume(serverUuid);
    return vol.withDir(resolveBeneath([], directory), async (dir) => {
      // Names as bytes, so names that are not valid UTF-8 are still listed (shown with U+FFFD).
      const names = await fs.readdir(dir.ref, { encoding: 'buffer' });
      const out: (DaemonFileStat | null)[] = new Array(names.length).fill(null);
      await lstatEach(dir, names, (i, name, st) => {
        out[i] = toFileStat(name, st);
      });
      const entries = out.filter((e): e is DaemonFileStat => e !== null);
      return entries.sort((a, b) => (a.isDirectory !== b.isDirectory ? (a.isDirectory ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    });
  }

  /**
   * Opens a regular file beneath the volume for reading: never a link, a directory or a special
   * file (a FIFO would block), and the opened handle is checked again, not only the name.
   */
  private async openRegular(serverUuid: string, file: string, maxBytes = Infinity): Promise<{ name: string; handle: FileHandle; st: Stats }> {
    const vol = await this.volume(serverUuid);
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

  async readFile(serverUuid: string, file: string, maxBytes: number): Promise<Buffer> {
    const { handle, st } = await this.openRegular(serverUuid, file, maxBytes);
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

  async openFile(serverUuid: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }> {
    const { name, handle, st } = await this.openRegular(serverUuid, file);
    if (st.size === 0) {
      await handle.close();
      return { stat: toFileStat(name, st), stream: Readable.from([]) };
    }
    // Exactly the stat'ed length, so the body always matches Content-Length.
    return { stat: toFileStat(name, st), stream: handle.createReadStream({ start: 0, end: st.size - 1, autoClose: true }) };
  }

  async writeFile(serverUuid: string, file: string, content: Buffer | Readable, options: { maxBytes: number } & WriteOptions): Promise<void> {
    const vol = await this.volume(serverUuid);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) throw isDirectoryError();
    await this.quotas.run(serverUuid, vol, options.quota, (budget) =>
      vol.withDir(
        comps,
        async (dir) => {
          const mode = await replaceableMode(dir.at(name));
          // The old content is freed by the rename, so an edit that does not grow the file fits.
          budget.credit(replacedBytes(await lstatOrNull(dir.at(name))));
          const part = await writePart(vol, dir, content, options.maxBytes, mode, budget.fileMeter());
          try {
            await fs.rename(dir.at(part), dir.at(name));
          } catch (error) {
            await removePart(dir, part);
            throw error;
          }
        },
        { create: true, beforeCreate: () => budget.charge(BLOCK) },
      ),
    );
  }

  async uploadFiles(
    serverUuid: string,
    directory: string,
    files: AsyncIterable<UploadPart>,
    options: { maxBytes: number } & WriteOptions,
  ): Promise<string[]> {
    const vol = await this.volume(serverUuid);
    return this.quotas.run(serverUuid, vol, options.quota, (budget) =>
      vol.withDir(resolveBeneath([], directory), async (dir) => {
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
            parts.push({ part: await writePart(vol, dir, upload.stream, options.maxBytes, mode, budget.fileMeter()), name });
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
      }),
    );
  }

  async copyFile(serverUuid: string, location: string, options: WriteOptions = {}): Promise<string> {
    const vol = await this.volume(serverUuid);
    const comps = resolveBeneath([], location);
    const name = comps.pop();
    if (name === undefined) throw missing();
    return this.quotas.run(serverUuid, vol, options.quota, (budget) =>
      vol.withDir(comps, async (dir) => {
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
          const part = await writePart(vol, dir, stream, Number.MAX_SAFE_INTEGER, st.mode & 0o777, budget.fileMeter()).finally(() =>
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
      }),
    );
  }

  async deleteFiles(serverUuid: string, root: string, files: string[]): Promise<void> {
    const vol = await this.volume(serverUuid);
    const targets = files.map((f) => resolveIn(root, f));
    if (targets.some((t) => t.length === 0)) throw new DaemonError('bad_request', 'The root of the server cannot be deleted.');
    // Every parent must be reachable before anything is deleted, so a hostile entry changes nothing.
    const parents = new Map(targets.map((t) => [t.slice(0, -1).join('/'), t.slice(0, -1)]));
    for (const parent of parents.values()) await vol.withDir(parent, async () => undefined);
    try {
      for (const target of targets) {
        const name = target[target.length - 1] as string;
        await vol.withDir(target.slice(0, -1), (dir) => vol.removeAt(dir, name));
      }
    } finally {
      this.quotas.forget(serverUuid);
    }
  }

  async createDirectory(serverUuid: string, root: string, name: string, options: WriteOptions = {}): Promise<void> {
    const vol = await this.volume(serverUuid);
    const comps = resolveIn(root, name);
    const last = comps.pop();
    if (last === undefined) throw new DaemonError('bad_request', 'A file or directory with that name already exists.');
    await this.quotas.run(serverUuid, vol, options.quota, (budget) => {
      const beforeCreate = () => budget.charge(BLOCK);
      return vol.withDir(comps, async (dir) => beforeCreate().then(() => fs.mkdir(dir.at(last), 0o755)), { create: true, beforeCreate });
    });
  }

  // Quota'd only for the directories a move creates on its way: moving a file allocates nothing.
  async renameFiles(serverUuid: string, root: string, files: { from: string; to: string }[], options: WriteOptions = {}): Promise<void> {
    const vol = await this.volume(serverUuid);
    const pairs = files.map((f) => ({ from: resolveIn(root, f.from), to: resolveIn(root, f.to) }));
    for (const { from, to } of pairs) {
      if (from.length === 0 || to.length === 0) throw new DaemonError('bad_request', 'The root of the server cannot be renamed.');
      if (isBelow(from, to)) throw new DaemonError('bad_request', 'A directory cannot be moved into itself.');
    }
    await this.quotas.run(serverUuid, vol, options.quota, (budget) => this.movePairs(vol, pairs, () => budget.charge(BLOCK)), 'move');
  }

  private async movePairs(vol: Volume, pairs: { from: string[]; to: string[] }[], beforeCreate: () => Promise<void>): Promise<void> {
    for (const { from, to } of pairs) {
      const fromName = from[from.length - 1] as string;
      const toName = to[to.length - 1] as string;
      await vol.withDir(from.slice(0, -1), async (src) => {
        if (!(await lstatOrNull(src.at(fromName)))) return; // a missing source is skipped, as Wings does
        await vol.withDir(
          to.slice(0, -1),
          async (dst) => {
            if (await lstatOrNull(dst.at(toName))) throw new DaemonError('bad_request', 'Cannot move or rename file, destination already exists.');
            await fs.rename(src.at(fromName), dst.at(toName));
          },
          { create: true, beforeCreate },
        );
      });
    }
  }

  async compressFiles(serverUuid: string, root: string, files: string[], now: Date, options: WriteOptions = {}): Promise<DaemonFileStat> {
    const vol = await this.volume(serverUuid);
    const rootComps = resolveBeneath([], root);
    const members = files.map((f) => resolveIn(root, f));
    if (members.some((m) => !isBelow(rootComps, m))) throw missing();
    try {
      return await this.quotas.run(serverUuid, vol, options.quota, (budget) =>
        compressInto(
          vol,
          rootComps,
          members.map((m) => m.slice(rootComps.length)),
          now,
          budget.fileMeter(),
        ),
      );
    } catch (error) {
      throw mapFsError(error);
    }
  }

  /** Expansion is capped by the daemon's limits, the caller's, and the server's remaining disk space. */
  async decompressFile(
    serverUuid: string,
    root: string,
    file: string,
    options: WriteOptions & { limits?: Partial<ExtractLimits> } = {},
  ): Promise<void> {
    const vol = await this.volume(serverUuid);
    const limits = options.limits ?? {};
    const effective: ExtractLimits = {
      maxBytes: Math.min(limits.maxBytes ?? Infinity, this.extractLimits.maxBytes),
      maxEntries: Math.min(limits.maxEntries ?? Infinity, this.extractLimits.maxEntries),
    };
    try {
      await this.quotas.run(serverUuid, vol, options.quota, (budget) =>
        extractInto(vol, resolveBeneath([], root), resolveIn(root, file), effective, budget),
      );
    } catch (error) {
      throw mapFsError(error);
    }
  }
}
