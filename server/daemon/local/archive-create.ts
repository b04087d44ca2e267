import { randomBytes } from 'node:crypto';
import { constants as C, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { Header, Pax } from 'tar';
import { isoOffset } from '../../lib/time';
import { lstatOrNull, MAX_DEPTH, type Dir, type Volume } from './confined';
import { removePart, writeAll, PART_PREFIX } from './parts';
import { isTempName, missing } from './paths';
import type { Meter } from './quota';
import { toFileStat } from './stat';
import { DaemonError, type DaemonFileStat, type ExtractLimits } from '../types';

/*
 * files/compress and backups: a portable (no owners) gzip'd tar written by hand from directory handles, so
 * the tree is read with the same no-follow, handle-checked walk as every other operation — the
 * `tar` package's own packer reads by path and would follow a directory swapped for a link.
 * Symlinks, FIFOs, sockets and devices are skipped: an archive never holds a link's target, and
 * our own decompress refuses link members. A transfer alone keeps links (its receiver checks them).
 */

const READ_CHUNK = 1024 * 1024;
const ZERO = Buffer.alloc(1024);

/** What one compress has read, against its caps; it stops once `signal` is aborted (the client left). */
class Input {
  private entries = 0;
  private bytes = 0;

  constructor(
    private readonly limits: ExtractLimits,
    private readonly signal: AbortSignal | undefined,
    private readonly tooMuch: (what: string) => DaemonError = selectionTooLarge,
    /** Told of the bytes of file bodies as they are read (a backup's progress). */
    readonly onRead: (bytes: number) => void = () => undefined,
  ) {}

  check(): void {
    if (this.signal?.aborted) throw new DaemonError('bad_request', 'The archive was not created: the request was cancelled.');
  }

  /** Counts one entry and the bytes of its body, refusing past either cap before they are read. */
  add(size: number): void {
    this.check();
    this.entries += 1;
    this.bytes += size;
    if (this.entries > this.limits.maxEntries) throw this.tooMuch(`more than ${this.limits.maxEntries.toLocaleString('en-US')} files and folders`);
    if (this.bytes > this.limits.maxBytes) throw this.tooMuch(`more than ${this.limits.maxBytes.toLocaleString('en-US')} bytes`);
  }
}

const selectionTooLarge = (what: string): DaemonError => new DaemonError('bad_request', `The archive was not created: the selection holds ${what}.`);

class TarStream {
  private readonly gzip = zlib.createGzip({ chunkSize: 256 * 1024 });
  private readonly done: Promise<void>;

  constructor(
    private readonly out: ArchiveOutput,
    meter: Meter,
    onChunk?: (chunk: Buffer) => void,
  ) {
    // A compress counts against the quota: each compressed chunk is charged before it is written.
    this.done = (async () => {
      for await (const chunk of this.gzip) {
        await meter((chunk as Buffer).length);
        onChunk?.(chunk as Buffer);
        if (typeof this.out === 'function') await this.out(chunk as Buffer);
        else await writeAll(this.out, chunk as Buffer);
      }
    })();
    // A failed write ends the consumer above; keep the rejection for finish() to report.
    this.done.catch(() => undefined);
  }

  async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }

  async header(path: string, st: Stats, type: 'File' | 'Directory' | 'SymbolicLink', size: number, linkpath?: string): Promise<void> {
    // Permission bits only: no setuid, setgid or sticky bit leaves a volume (attacks T-SBX-UID).
    const data = { path, mode: st.mode & 0o777, size, mtime: st.mtime, type, linkpath } as const;
    const header = new Header(data);
    if (header.encode()) await this.write(new Pax({ path, size, mtime: st.mtime, linkpath }).encode());
    if (!header.block) throw new Error('failed to encode a tar header');
    await this.write(header.block);
  }

  async finish(): Promise<void> {
    await this.write(ZERO);
    this.gzip.end();
    await this.done;
  }

  abort(): void {
    this.gzip.destroy();
  }
}

/** Copies exactly `size` bytes of an open file into the tar (zero-padded if it shrank meanwhile). */
async function copyBody(tar: TarStream, file: FileHandle, size: number, input: Input): Promise<void> {
  let position = 0;
  while (position < size) {
    input.check();
    const want = Math.min(READ_CHUNK, size - position);
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await file.read(buf, 0, want, position);
    if (bytesRead === 0) {
      buf.fill(0);
      await tar.write(buf);
      position += want;
    } else {
      await tar.write(bytesRead === want ? buf : buf.subarray(0, bytesRead));
      position += bytesRead;
      input.onRead(bytesRead);
    }
  }
  const pad = (512 - (size % 512)) % 512;
  if (pad) await tar.write(Buffer.alloc(pad));
}

/**
 * The names in a directory, sorted, but the daemon's temporary files (they never leave it, not
 * even inside an archive). Member names are text: a name that is not valid UTF-8 could only be
 * stored altered, so it refuses the archive rather than the file being left out unsaid.
 */
async function namesIn(dir: Dir, memberPath: string): Promise<string[]> {
  const names: string[] = [];
  for (const raw of await fs.readdir(dir.ref, { encoding: 'buffer' })) {
    const name = raw.toString('utf8');
    if (!Buffer.from(name).equals(raw)) {
      const shown = JSON.stringify(memberPath ? `${memberPath}/${name}` : name);
      throw new DaemonError('bad_request', `The archive was not created: the name of ${shown} is not valid UTF-8 (rename it first).`);
    }
    if (!isTempName(name)) names.push(name);
  }
  return names.sort();
}

interface Skip {
  dev: number;
  ino: number;
}

/** Which entries go in (a backup's ignored files): the member path, and whether it is a directory. */
export type EntryFilter = (memberPath: string, isDirectory: boolean) => boolean;

interface Walk {
  tar: TarStream;
  skip: Skip;
  input: Input;
  filter?: EntryFilter;
  links: boolean;
}

async function addEntry(vol: Volume, walk: Walk, dir: Dir, name: string, memberPath: string, depth: number): Promise<boolean> {
  const { tar, skip, input, filter, links } = walk;
  const st = await lstatOrNull(dir.at(name));
  if (!st) return false;
  if (st.dev === skip.dev && st.ino === skip.ino) return true;
  if (filter && !filter(memberPath, st.isDirectory())) return true;
  if (st.isDirectory()) {
    input.add(0);
    if (depth >= MAX_DEPTH) throw new DaemonError('bad_request', 'The directory tree is too deeply nested.');
    let sub: Dir;
    try {
      sub = await vol.openChildDir(dir, name);
    } catch {
      return false; // swapped for a link or removed since the lstat
    }
    try {
      const dst = await sub.handle.stat();
      await tar.header(`${memberPath}/`, dst, 'Directory', 0);
      const names = await namesIn(sub, memberPath);
      for (const child of names) await addEntry(vol, walk, sub, child, `${memberPath}/${child}`, depth + 1);
    } finally {
      await sub.close();
    }
    return true;
  }
  if (st.isSymbolicLink() && links) {
    input.add(0);
    return tar.header(memberPath, st, 'SymbolicLink', 0, await fs.readlink(dir.at(name))).then(() => true);
  }
  if (!st.isFile()) return true; // links (but for a transfer) and special files are skipped, see above
  let file: FileHandle;
  try {
    file = await vol.openFileAt(dir, name, C.O_RDONLY);
  } catch {
    return false;
  }
  try {
    const fst = await file.stat();
    if (!fst.isFile()) return true;
    input.add(fst.size);
    await tar.header(memberPath, fst, 'File', fst.size);
    await copyBody(tar, file, fst.size, input);
  } finally {
    await file.close();
  }
  return true;
}

export interface ArchiveOptions {
  limits: ExtractLimits;
  signal?: AbortSignal;
  /** Charged with each compressed chunk before it is written (the quota of an archive inside the volume). */
  meter: Meter;
  filter?: EntryFilter;
  /** Sees each compressed chunk as it is written (a backup's checksum). */
  onChunk?: (chunk: Buffer) => void;
  /** Told of the bytes of file bodies as they are read (a backup's progress). */
  onRead?: (bytes: number) => void;
  /** The refusal past `limits` (`what`: "more than N bytes"); compress's own by default. */
  tooMuch?: (what: string) => DaemonError;
  links?: boolean; // symlinks go in as links (a transfer)
}

/** A file, or a writer that resolves once the chunk is taken (a transfer's request). */
export type ArchiveOutput = FileHandle | ((chunk: Buffer) => Promise<void>);

/**
 * Writes into `out` a gzip'd tar of `members` of the directory `rootComps` (component lists
 * relative to it; a missing one is `not_found`), or of `'everything'` in it (what vanishes
 * meanwhile is left out). What it reads is capped by `limits`; past them, or once `signal` is
 * aborted, it throws, and what was written is the caller's to remove.
 */
export async function writeArchive(
  vol: Volume,
  rootComps: string[],
  members: string[][] | 'everything',
  out: ArchiveOutput,
  options: ArchiveOptions,
): Promise<void> {
  const input = new Input(options.limits, options.signal, options.tooMuch, options.onRead);
  input.check();
  const tar = new TarStream(out, options.meter, options.onChunk);
  try {
    const skip = typeof out === 'function' ? { dev: -1, ino: -1 } : await out.stat(); // the archive itself, if in the volume
    const walk: Walk = { tar, skip, input, filter: options.filter, links: options.links === true };
    if (members === 'everything') {
      await vol.withDir(rootComps, async (root) => {
        const names = await namesIn(root, '');
        for (const name of names) await addEntry(vol, walk, root, name, name, 0);
      });
    } else {
      for (const member of members) {
        const name = member[member.length - 1] as string;
        const found = await vol.withDir([...rootComps, ...member.slice(0, -1)], (dir) => addEntry(vol, walk, dir, name, member.join('/'), 0));
        if (!found) throw missing();
      }
    }
    await tar.finish();
    input.check();
  } catch (error) {
    tar.abort();
    throw error;
  }
}

/**
 * Writes `archive-<timestamp>.tar.gz` (the reference panel's name with `:` removed) into the
 * directory `rootComps`, holding `members` (component lists relative to that directory). What it
 * reads is capped by `limits`; past them, or once `signal` is aborted, it stops and leaves nothing.
 */
export async function compressInto(
  vol: Volume,
  rootComps: string[],
  members: string[][],
  now: Date,
  meter: Meter,
  options: { limits: ExtractLimits; signal?: AbortSignal },
): Promise<DaemonFileStat> {
  new Input(options.limits, options.signal).check(); // gone while it waited for the lock
  return vol.withDir(rootComps, async (root) => {
    const part = `${PART_PREFIX}${randomBytes(8).toString('hex')}.part`;
    const out = await vol.openFileAt(root, part, C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o644);
    try {
      await writeArchive(vol, rootComps, members, out, { ...options, meter });
      const st = await out.stat();
      await out.close();
      const base = `archive-${isoOffset(now).replace(/:/g, '')}`;
      for (let i = 0; i < 100; i += 1) {
        const candidate = i === 0 ? `${base}.tar.gz` : `${base}-${i}.tar.gz`;
        if (await lstatOrNull(root.at(candidate))) continue;
        try {
          await fs.link(root.at(part), root.at(candidate)); // never replaces an existing file
          return { ...toFileStat(candidate, st), mimetype: 'application/tar+gzip' };
        } catch (error) {
          if ((error as { code?: string }).code !== 'EEXIST') throw error;
        }
      }
      throw new DaemonError('bad_request', 'Could not find a free name for the archive.');
    } finally {
      await out.close().catch(() => undefined);
      await removePart(root, part);
    }
  });
}
