import { constants as C, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FileCapability, ServerConfiguration } from '../capabilities';
import { DaemonError, type DaemonFileStat, type ExtractLimits, type UploadPart } from '../types';
import { compressInto } from './archive-create';
import { extractInto } from './archive-extract';
import { lstatOrNull, mapFsError, type Volume } from './confined';
import type { Configurations } from './configurations';
import { copyWithin, placeInto, replacing, uploadInto, writeInto, type WriteGuard } from './file-writes';
import { isDirectoryError, notRegularError, tooLargeError } from './file-rules';
import { lstatEach, readNames } from './listing';
import type { ServerLocks } from './locks';
import { display, isBelow, isTempName, missing, resolveBeneath, resolveIn } from './paths';
import type { Budget, DiskQuotas, Limits, Reservation } from './quota';
import { toFileStat } from './stat';
import { Received } from './receive-area';
import type { Volumes } from './volumes';

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = { maxBytes: 1024 ** 3, maxEntries: 100_000 };
/** Files and folders one server may hold (PANEL_MAX_SERVER_ENTRIES); a host's inodes run out before its disk. */
export const DEFAULT_MAX_ENTRIES = 250_000;
/** Entries one listing may return: a larger folder is refused rather than held in memory. */
export const DEFAULT_MAX_LIST_ENTRIES = 100_000;

/** A file being written by pieces (`openWrite`): placed by `close`, dropped by `abort`. */
export interface FileWriter {
  write(data: Uint8Array, position: number): Promise<void>;
  /** Places the file; refused (nothing stored) when a write failed or the limit is passed. */
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** The disk limit of a configuration in bytes (`disk_space` is MiB; 0 = unlimited). */
export const diskLimitBytes = (configuration: ServerConfiguration): number => Math.max(0, configuration.settings.build.disk_space) * 1024 * 1024;

/**
 * The local daemon's file manager. Every client path is resolved lexically (`paths.ts`) and then
 * walked through directory handles (`confined.ts`); everything that changes the volume runs under
 * the server's write lock and its disk limit, taken from the configuration the daemon holds. A
 * client's body is received before the lock is taken, against a reservation (`receiving`).
 */
export class LocalFiles implements FileCapability {
  /** Caps for decompress; tests and operators may lower them. */
  extractLimits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS };
  /** Caps on what one compress reads. */
  compressLimits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS };
  /** Entries a listing may return. */
  maxListEntries = DEFAULT_MAX_LIST_ENTRIES;

  constructor(
    private readonly volumes: Volumes,
    private readonly configurations: Configurations,
    private readonly locks: ServerLocks,
    private readonly quotas: DiskQuotas,
    /** Files and folders a server may hold; enforced on every write path here (0 = no cap). */
    public maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  private async volume(server: string): Promise<Volume> {
    await this.configurations.get(server);
    return this.volumes.open(server);
  }

  /** The server's limits: its disk space, and the entries any server may hold. */
  private async limits(server: string): Promise<Limits> {
    return { bytes: diskLimitBytes(await this.configurations.get(server)), entries: this.maxEntries };
  }

  /** Runs a change to the volume under the server's lock and limits (`own`: the reservation of the body it places). */
  private async changing<T>(
    server: string,
    vol: Volume,
    fn: (budget: Budget) => Promise<T>,
    kind: 'write' | 'move' = 'write',
    own?: Reservation,
  ): Promise<T> {
    const limits = await this.limits(server);
    return this.locks.write(server, () => this.quotas.run(server, vol, limits, fn, kind, own));
  }

  /** Receives a client's body outside the lock against a reservation (given back at the end), then places it with `changing`. */
  private async receiving<T>(server: string, vol: Volume, fn: (guard: WriteGuard) => Promise<T>): Promise<T> {
    this.locks.admit(server);
    const reservation = this.quotas.reserve(server, vol, await this.limits(server));
    try {
      return await fn({
        receive: async (content, maxBytes, replacing) => {
          reservation.credit(replacing);
          return Received.receive(await this.volumes.receiveArea(), content, maxBytes, await reservation.fileMeter());
        },
        place: (write) => this.changing(server, vol, write, 'write', reservation),
      });
    } finally {
      reservation.release();
    }
  }

  async list(server: string, directory: string): Promise<DaemonFileStat[]> {
    const vol = await this.volume(server);
    return vol.withDir(resolveBeneath([], directory), async (dir) => {
      // Names as bytes, so names that are not valid UTF-8 are still listed (shown with U+FFFD).
      const names = await readNames(dir, this.maxListEntries);
      if (!names) {
        const max = this.maxListEntries.toLocaleString('en-US');
        throw new DaemonError('bad_request', `This folder has more than ${max} entries; it is too large to list here.`);
      }
      const out: (DaemonFileStat | null)[] = new Array(names.length).fill(null);
      await lstatEach(dir, names, (i, name, st) => {
        if (!isTempName(name)) out[i] = toFileStat(name, st);
      });
      const entries = out.filter((e): e is DaemonFileStat => e !== null);
      return entries.sort((a, b) => (a.isDirectory !== b.isDirectory ? (a.isDirectory ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    });
  }

  /**
   * Opens a regular file beneath the volume for reading: never a link, a directory or a special
   * file (a FIFO would block), and the opened handle is checked again, not only the name.
   */
  private async openRegular(server: string, file: string, maxBytes = Infinity): Promise<{ name: string; handle: FileHandle; st: Stats }> {
    const vol = await this.volume(server);
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

  async read(server: string, file: string, maxBytes: number): Promise<Buffer> {
    const { handle, st } = await this.openRegular(server, file, maxBytes);
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

  async open(server: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }> {
    const { name, handle, st } = await this.openRegular(server, file);
    if (st.size === 0) {
      await handle.close();
      return { stat: toFileStat(name, st), stream: Readable.from([]) };
    }
    // Exactly the stat'ed length, so the body always matches Content-Length.
    return { stat: toFileStat(name, st), stream: handle.createReadStream({ start: 0, end: st.size - 1, autoClose: true }) };
  }

  /** One entry, never followed: the volume root, or a file, directory or link itself (SFTP's stat). */
  async stat(server: string, file: string): Promise<Stats> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) return vol.withDir([], (dir) => dir.handle.stat());
    return vol.withDir(comps, async (dir) => {
      const st = await lstatOrNull(dir.at(name));
      if (!st) throw missing();
      return st;
    });
  }

  /** A regular file opened for reads at any offset (SFTP); the caller closes the handle. */
  async openHandle(server: string, file: string): Promise<{ handle: FileHandle; st: Stats }> {
    const { handle, st } = await this.openRegular(server, file);
    return { handle, st };
  }

  /** Sets the permission bits (0o777 at most) of a file or directory, never through a link. */
  async chmod(server: string, file: string, mode: number): Promise<void> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) throw missing(); // the volume root keeps its mode
    await this.locks.write(server, () =>
      vol.withDir(comps, async (dir) => {
        const st = await lstatOrNull(dir.at(name));
        if (!st || st.isSymbolicLink()) throw missing();
        if (!st.isDirectory() && !st.isFile()) throw notRegularError();
        const handle = st.isDirectory() ? (await vol.openChildDir(dir, name)).handle : await vol.openFileAt(dir, name, C.O_RDONLY);
        try {
          // A file with other hard links may be one outside the volume too: its mode is not the tenant's to set.
          const opened = await handle.stat();
          if (opened.isFile() && opened.nlink > 1) throw new DaemonError('bad_request', 'The file has other hard links: its mode cannot be changed.');
          await handle.chmod(mode & 0o777);
        } finally {
          await handle.close();
        }
      }),
    );
  }

  /**
   * A file written piece by piece at any offset (SFTP): received aside against a reservation, each
   * piece charged to the disk limit as it arrives, and placed all or nothing by `close`. With
   * `keep`, the current content is copied first (an append or a resumed upload).
   */
  async openWrite(server: string, file: string, options: { maxBytes: number; keep: boolean }): Promise<FileWriter> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) throw isDirectoryError();
    this.locks.admit(server);
    // Refused at once: a missing folder, a directory or a link in the way.
    await vol.withDir(comps, async () => undefined);
    const freed = await replacing(vol, comps, name);
    const reservation = this.quotas.reserve(server, vol, await this.limits(server));
    let received: Received | undefined;
    try {
      reservation.credit(freed);
      const body = (received = await Received.start(await this.volumes.receiveArea()));
      const meter = await reservation.fileMeter();
      if (options.keep && freed > 0) {
        const { handle } = await this.openRegular(server, file);
        try {
          let position = 0;
          for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
            await body.writeAt(chunk, position, meter, options.maxBytes);
            position += chunk.length;
          }
        } finally {
          await handle.close();
        }
      }
      let failed = false;
      let done = false;
      const finish = async () => {
        done = true;
        reservation.release();
        await body.drop();
      };
      return {
        write: async (data, position) => {
          if (failed || done) throw new DaemonError('bad_request', 'An earlier write to this file failed.');
          try {
            await body.writeAt(data, position, meter, options.maxBytes);
          } catch (error) {
            failed = true;
            throw mapFsError(error);
          }
        },
        close: async () => {
          if (done) return;
          try {
            if (failed) throw new DaemonError('bad_request', 'An earlier write to this file failed: nothing was stored.');
            await this.changing(server, vol, (budget) => placeInto(vol, comps, name, body, budget), 'write', reservation);
          } finally {
            await finish();
          }
        },
        abort: async () => {
          if (!done) await finish();
        },
      };
    } catch (error) {
      reservation.release();
      await received?.drop();
      throw mapFsError(error);
    }
  }

  async write(server: string, file: string, content: Buffer | Readable, options: { maxBytes: number }): Promise<void> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) throw isDirectoryError();
    await this.receiving(server, vol, (guard) => writeInto(vol, comps, name, content, options.maxBytes, guard));
  }

  async upload(server: string, directory: string, files: AsyncIterable<UploadPart>, options: { maxBytes: number }): Promise<string[]> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], directory);
    return this.receiving(server, vol, (guard) => uploadInto(vol, comps, files, options.maxBytes, guard));
  }

  async copy(server: string, location: string): Promise<string> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], location);
    const name = comps.pop();
    if (name === undefined) throw missing();
    return this.changing(server, vol, (budget) => copyWithin(vol, comps, name, budget));
  }

  async delete(server: string, root: string, files: string[]): Promise<string[]> {
    const vol = await this.volume(server);
    const targets = files.map((f) => resolveIn(root, f));
    if (targets.some((t) => t.length === 0)) throw new DaemonError('bad_request', 'The root of the server cannot be deleted.');
    return this.locks.write(server, async () => {
      // Every parent must be reachable before anything is deleted, so a hostile entry changes nothing.
      const parents = new Map(targets.map((t) => [t.slice(0, -1).join('/'), t.slice(0, -1)]));
      for (const parent of parents.values()) await vol.withDir(parent, async () => undefined);
      const deleted: string[] = [];
      try {
        for (const [i, target] of targets.entries()) {
          const name = target[target.length - 1] as string;
          await vol.withDir(target.slice(0, -1), async (dir) => {
            if (!(await lstatOrNull(dir.at(name)))) return;
            await vol.removeAt(dir, name);
            deleted.push(files[i] ?? name);
          });
        }
      } finally {
        this.quotas.forget(server);
      }
      return deleted;
    });
  }

  async createDirectory(server: string, root: string, name: string): Promise<void> {
    const vol = await this.volume(server);
    const comps = resolveIn(root, name);
    const last = comps.pop();
    if (last === undefined) throw new DaemonError('bad_request', 'A file or directory with that name already exists.');
    await this.changing(server, vol, (budget) => {
      const beforeCreate = () => budget.newDirectory();
      return vol.withDir(comps, async (dir) => beforeCreate().then(() => fs.mkdir(dir.at(last), 0o755)), { create: true, beforeCreate });
    });
  }

  // Quota'd only for the directories a move creates on its way: moving a file allocates nothing.
  async rename(server: string, root: string, files: { from: string; to: string }[]): Promise<{ from: string; to: string }[]> {
    const vol = await this.volume(server);
    const pairs = files.map((f) => ({ from: resolveIn(root, f.from), to: resolveIn(root, f.to), asGiven: f }));
    for (const { from, to } of pairs) {
      if (from.length === 0 || to.length === 0) throw new DaemonError('bad_request', 'The root of the server cannot be renamed.');
      if (isBelow(from, to)) throw new DaemonError('bad_request', 'A directory cannot be moved into itself.');
    }
    return this.changing(server, vol, (budget) => movePairs(vol, pairs, () => budget.newDirectory()), 'move');
  }

  async compress(server: string, root: string, files: string[], now: Date, options: { signal?: AbortSignal } = {}): Promise<DaemonFileStat> {
    const vol = await this.volume(server);
    const rootComps = resolveBeneath([], root);
    const members = files.map((f) => resolveIn(root, f));
    if (members.some((m) => !isBelow(rootComps, m))) throw missing();
    // Each would be archived twice: as itself and again inside the folder (or under the second name).
    const named = new Set<string>();
    for (const m of members) {
      if (named.has(m.join('/'))) throw new DaemonError('bad_request', `${display(m)} is named twice.`);
      named.add(m.join('/'));
    }
    for (const m of members) {
      for (let i = 1; i < m.length; i += 1) {
        const outer = m.slice(0, i);
        if (named.has(outer.join('/')))
          throw new DaemonError('bad_request', `${display(m)} is inside ${display(outer)}, which is compressed already.`);
      }
    }
    const relative = members.map((m) => m.slice(rootComps.length));
    const input = { limits: this.compressLimits, signal: options.signal };
    try {
      return await this.changing(server, vol, async (budget) => compressInto(vol, rootComps, relative, now, await budget.fileMeter(), input));
    } catch (error) {
      throw mapFsError(error);
    }
  }

  /** Expansion is capped by the daemon's limits, the caller's, and the server's remaining disk space. */
  async decompress(server: string, root: string, file: string, options: { limits?: Partial<ExtractLimits> } = {}): Promise<void> {
    const vol = await this.volume(server);
    const limits = options.limits ?? {};
    const effective: ExtractLimits = {
      maxBytes: Math.min(limits.maxBytes ?? Infinity, this.extractLimits.maxBytes),
      maxEntries: Math.min(limits.maxEntries ?? Infinity, this.extractLimits.maxEntries),
    };
    try {
      await this.changing(server, vol, (budget) => extractInto(vol, resolveBeneath([], root), resolveIn(root, file), effective, budget));
    } catch (error) {
      throw mapFsError(error);
    }
  }
}

interface MovePair {
  from: string[];
  to: string[];
  asGiven: { from: string; to: string };
}

/** Moves each pair in turn; returns the pairs (as the client gave them) whose source existed. */
async function movePairs(vol: Volume, pairs: MovePair[], beforeCreate: () => Promise<void>): Promise<MovePair['asGiven'][]> {
  const moved: MovePair['asGiven'][] = [];
  for (const { from, to, asGiven } of pairs) {
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
      moved.push(asGiven);
    });
  }
  return moved;
}
