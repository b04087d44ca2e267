import { constants as C, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FileCapability, ServerConfiguration } from '../capabilities';
import { DaemonError, type DaemonFileStat, type ExtractLimits, type UploadPart } from '../types';
import { compressInto } from './archive-create';
import { extractInto } from './archive-extract';
import { lstatOrNull, mapFsError, type Volume } from './confined';
import { deleteTargets, movePairs } from './file-moves';
import { openRegular, openStream, readWhole, statEntry } from './file-reads';
import { openWriter, type FileWriter } from './file-writer';
import type { Configurations } from './configurations';
import { copyWithin, uploadInto, writeInto, type WriteGuard } from './file-writes';
import { isDirectoryError, notRegularError } from './file-rules';
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

export type { FileWriter } from './file-writer';

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
  async limits(server: string): Promise<Limits> {
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

  async read(server: string, file: string, maxBytes: number): Promise<Buffer> {
    return readWhole(await this.volume(server), file, maxBytes);
  }

  async open(server: string, file: string): Promise<{ stat: DaemonFileStat; stream: Readable }> {
    return openStream(await this.volume(server), file);
  }

  /** One entry, never followed: the volume root, or a file, directory or link itself (SFTP's stat). */
  async stat(server: string, file: string): Promise<Stats> {
    return statEntry(await this.volume(server), file);
  }

  /** A regular file opened for reads at any offset (SFTP); the caller closes the handle. */
  async openHandle(server: string, file: string): Promise<{ handle: FileHandle; st: Stats }> {
    const { handle, st } = await openRegular(await this.volume(server), file);
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

  /** A file written piece by piece at any offset (`file-writer.ts`). */
  async openWrite(server: string, file: string, options: { maxBytes: number; keep: boolean }): Promise<FileWriter> {
    const vol = await this.volume(server);
    const comps = resolveBeneath([], file);
    const name = comps.pop();
    if (name === undefined) throw isDirectoryError();
    this.locks.admit(server);
    return openWriter(
      {
        vol,
        receiveArea: () => this.volumes.receiveArea(),
        reserve: async () => {
          this.locks.admit(server);
          return this.quotas.reserve(server, vol, await this.limits(server));
        },
        place: (fn, own) => this.changing(server, vol, fn, 'write', own),
        openCurrent: () => openRegular(vol, file),
      },
      comps,
      name,
      options,
    );
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
      try {
        return await deleteTargets(vol, targets, files);
      } finally {
        this.quotas.forget(server);
      }
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
