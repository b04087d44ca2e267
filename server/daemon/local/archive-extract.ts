import { randomBytes } from 'node:crypto';
import { constants as C } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import zlib from 'node:zlib';
import { lstatOrNull, MAX_DEPTH, type Dir, type Volume } from './confined';
import { ExtractSink, refused } from './archive-sink';
import { PART_PREFIX } from './parts';
import { missing } from './paths';
import { replacedBytes, type Budget } from './quota';
import { DaemonError, type ExtractLimits } from '../types';

/*
 * files/decompress. The archive is opened like any other file (no links, checked
 * handle), its format sniffed from the content, and every member written through the confined
 * writer into a fresh staging directory beside the target. Any refused member, a cap exceeded
 * or a corrupt archive removes the staging directory: nothing was written. Only then is the
 * staged tree checked against the target (a member may not replace a directory, a directory
 * member may not land on a file or link) and moved in with renames.
 */

const UNKNOWN_FORMAT = 'The archive provided is in a format Wings does not understand.';

type Format = 'gzip' | 'tar' | 'zip';

async function sniff(handle: FileHandle, name: string): Promise<Format | null> {
  const head = Buffer.alloc(512);
  const { bytesRead } = await handle.read(head, 0, 512, 0);
  if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (bytesRead >= 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip';
  if (bytesRead === 512 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  if (bytesRead === 512 && name.toLowerCase().endsWith('.tar')) return 'tar';
  return null;
}

async function readTar(handle: FileHandle, gzip: boolean, sink: ExtractSink, limits: ExtractLimits): Promise<void> {
  let failure: unknown = null;
  let failNow: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    failNow = (error) => {
      failure ??= error;
      reject(failure);
    };
  });
  failed.catch(() => undefined);
  const parser = new Parser({ strict: true, maxMetaEntrySize: 64 * 1024 });
  let work: Promise<void> = Promise.resolve();
  // An end-of-archive marker with no entry before it is a legal, empty tar (GNU tar lists it; a
  // backup of an empty volume is one), which the parser calls unrecognized.
  let empty = true;
  let sawEnd = false;
  parser.on('eof', () => void (sawEnd = true));
  parser.on('error', (error: unknown) => {
    if (empty && sawEnd && (error as { code?: unknown }).code === 'TAR_BAD_ARCHIVE') return;
    failNow(error instanceof DaemonError ? error : new DaemonError('bad_request', UNKNOWN_FORMAT));
  });
  parser.on('ignoredEntry', (entry: ReadEntry) => failNow(refused(`member ${JSON.stringify(entry.path)} has an unsupported type (${entry.type})`)));
  parser.on('entry', (entry: ReadEntry) => {
    empty = false;
    work = work.then(async () => {
      if (failure) return void entry.resume();
      try {
        await handleTarEntry(entry, sink);
      } catch (error) {
        entry.resume();
        failNow(error);
      }
    });
  });
  const ended = new Promise<void>((resolve) => parser.on('end', () => resolve()));

  // Everything the parser sees is counted, so padding and skipped metadata cannot be a bomb either.
  const ceiling = limits.maxBytes + limits.maxEntries * 2048 + 16 * 1024 * 1024;
  let seen = 0;
  const raw = handle.createReadStream({ start: 0, autoClose: false, highWaterMark: 1024 * 1024 });
  const source = gzip ? raw.pipe(zlib.createGunzip({ chunkSize: 256 * 1024 })) : raw;
  try {
    for await (const chunk of source) {
      seen += (chunk as Buffer).length;
      if (seen > ceiling) throw refused(`it expands to more than ${limits.maxBytes} bytes`);
      if (failure) throw failure;
      if (!parser.write(chunk as Buffer)) await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), failed]);
    }
    parser.end();
    await Promise.race([ended, failed]);
    await work;
    if (failure) throw failure;
  } catch (error) {
    raw.destroy();
    if (error instanceof DaemonError) throw error;
    throw new DaemonError('bad_request', UNKNOWN_FORMAT);
  }
}

async function handleTarEntry(entry: ReadEntry, sink: ExtractSink): Promise<void> {
  const comps = sink.components(entry.path);
  if (entry.type === 'Directory') {
    await sink.count(0);
    entry.resume();
    if (comps.length) await sink.directory(comps);
    return;
  }
  if (entry.type === 'SymbolicLink' && sink.links) {
    await sink.count(0);
    entry.resume();
    return sink.symlink(comps, entry.linkpath ?? '');
  }
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
    throw refused(`member ${JSON.stringify(entry.path)} is a ${entry.type}, only files and directories are extracted`);
  }
  await sink.count(entry.size, comps);
  await sink.file(comps, entry.mode, entry.mtime, entry);
}

function openZip(handle: FileHandle): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromFd(
      handle.fd,
      { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (error, zip) => (error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip)),
    );
  });
}

async function readZip(handle: FileHandle, sink: ExtractSink, limits: ExtractLimits): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(handle);
  } catch {
    throw new DaemonError('bad_request', UNKNOWN_FORMAT);
  }
  if (zip.entryCount > limits.maxEntries) throw refused(`it has more than ${limits.maxEntries} entries`);
  await new Promise<void>((resolve, reject) => {
    // No zip.close(): it would close our descriptor, which the caller's FileHandle owns.
    const fail = (error: unknown) => {
      reject(error instanceof DaemonError ? error : refused(error instanceof Error ? error.message : 'it is damaged'));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      handleZipEntry(zip, entry, sink).then(() => zip.readEntry(), fail);
    });
    zip.readEntry();
  });
}

async function handleZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, sink: ExtractSink): Promise<void> {
  const comps = sink.components(entry.fileName);
  const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const type = unixMode & 0o170000;
  const isDir = entry.fileName.endsWith('/') || type === 0o040000;
  if (type !== 0 && type !== 0o100000 && type !== 0o040000) {
    throw refused(`member ${JSON.stringify(entry.fileName)} is a link or special file, only files and directories are extracted`);
  }
  if (entry.generalPurposeBitFlag & 1) throw refused('encrypted members are not supported');
  if (isDir) {
    await sink.count(0);
    if (comps.length) await sink.directory(comps);
    return;
  }
  await sink.count(entry.uncompressedSize, comps);
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, s) => (error || !s ? reject(error ?? new Error('no stream')) : resolve(s))),
  );
  await sink.file(comps, unixMode & 0o7777, entry.getLastModDate(), stream as AsyncIterable<Buffer>);
}

/** Moves a file or link a member replaces out of the way (into the extraction's trash folder). */
type Discard = (dir: Dir, name: string) => Promise<void>;

/**
 * Moves the staged tree into `dst`. With `dryRun` only checks for conflicts: a file member over a
 * directory, or a directory member over a file or link (never followed).
 */
async function merge(vol: Volume, src: Dir, dst: Dir, dryRun: boolean, discard: Discard, depth = 0): Promise<void> {
  if (depth > MAX_DEPTH) throw refused('it is nested too deeply');
  for (const name of await fs.readdir(src.ref)) {
    const from = await lstatOrNull(src.at(name));
    const to = await lstatOrNull(dst.at(name));
    if (!from) continue;
    if (from.isDirectory() && to) {
      if (!to.isDirectory()) throw refused(`"${name}" already exists and is not a directory`);
      const [subSrc, subDst] = [await vol.openChildDir(src, name), await vol.openChildDir(dst, name).catch(() => null)];
      try {
        if (!subDst) throw refused(`"${name}" already exists and is not a directory`);
        await merge(vol, subSrc, subDst, dryRun, discard, depth + 1);
      } finally {
        await subSrc.close();
        await subDst?.close();
      }
    } else {
      if (to?.isDirectory()) throw refused(`"${name}" already exists as a directory`);
      // A file (or a whole new directory) moves in with one rename; a file or link in the way is
      // moved aside first (never followed).
      if (dryRun) continue;
      if (to) await discard(dst, name);
      await fs.rename(src.at(name), dst.at(name));
    }
  }
}

export async function extractInto(vol: Volume, rootComps: string[], fileComps: string[], limits: ExtractLimits, budget: Budget): Promise<void> {
  const name = fileComps.pop();
  if (name === undefined) throw missing();
  const archive = await vol.withDir(fileComps, async (dir) => {
    if (!(await lstatOrNull(dir.at(name)))?.isFile()) throw missing();
    return vol.openFileAt(dir, name, C.O_RDONLY);
  });
  try {
    if (!(await archive.stat()).isFile()) throw missing();
    await extractArchive(vol, rootComps, archive, name, limits, budget);
  } finally {
    await archive.close();
  }
}

/**
 * Extracts an open archive (`name` helps tell a bare tar) into the directory `rootComps` with the
 * checks above: decompress reads one from the volume, a restore a backup kept beside the volumes.
 * With `creditReplaced` the files members replace count as freed (a restore over the files it
 * saved fits where they fit; a failed one is measured afresh). With `posixNames` member names
 * keep backslashes and control characters (a backup holds the volume's names as they were).
 */
export async function extractArchive(
  vol: Volume,
  rootComps: string[],
  archive: FileHandle,
  name: string,
  limits: ExtractLimits,
  budget: Budget,
  options: { creditReplaced?: boolean; posixNames?: boolean; links?: boolean } = {},
): Promise<void> {
  // Looked up through handles like any path in the volume; a link in the way credits nothing.
  // Members come grouped by folder, so the folder's handle is kept for the next one.
  let target: { key: string; dir: Dir | null } | null = null;
  const replaced = async (member: readonly string[]): Promise<number> => {
    const dirs = [...rootComps, ...member.slice(0, -1)];
    const key = dirs.join('/');
    if (target?.key !== key) {
      await target?.dir?.close();
      target = { key, dir: await vol.openDir(dirs).catch(() => null) };
    }
    return target.dir ? replacedBytes(await lstatOrNull(target.dir.at(member.at(-1) as string))) : 0;
  };
  const format = await sniff(archive, name);
  if (!format) throw new DaemonError('bad_request', UNKNOWN_FORMAT);
  // Replaced files are moved into a trash folder and removed once the extraction has ended:
  // freeing a file's blocks waits for its pages still being written back, which a rename over it
  // would do in the middle of the merge. The folder is reached through its handle, so a running
  // server that swaps its name for a link moves nothing out. One a crash leaves is swept at start.
  const trashName = `${PART_PREFIX}replaced-${randomBytes(8).toString('hex')}`;
  let trash: Dir | null = null;
  let trashed = 0;
  await vol.withDir(rootComps, async (root) => {
    const discard: Discard = async (dir, name) => {
      if (!trash) {
        await fs.mkdir(root.at(trashName), 0o700);
        trash = await vol.openChildDir(root, trashName);
      }
      trashed += 1;
      await fs.rename(dir.at(name), trash.at(String(trashed)));
    };
    const stagingName = `${PART_PREFIX}extract-${randomBytes(8).toString('hex')}`;
    await fs.mkdir(root.at(stagingName), 0o700);
    try {
      const stage = await vol.openChildDir(root, stagingName);
      const sink = new ExtractSink(vol, stage, limits, budget, options.creditReplaced ? replaced : undefined, options.posixNames);
      sink.links = options.links === true;
      try {
        if (format === 'zip') await readZip(archive, sink, limits);
        else await readTar(archive, format === 'gzip', sink, limits);
        await sink.close();
        await merge(vol, stage, root, true, discard);
        await merge(vol, stage, root, false, discard);
      } finally {
        await sink.close();
        await stage.close();
        await target?.dir?.close();
        await trash?.close();
      }
    } finally {
      await vol.removeAt(root, stagingName);
    }
  });
  // Not waited for: the members are in place, and what they replaced is no one's to read.
  if (trashed) void vol.withDir(rootComps, (root) => vol.removeAt(root, trashName)).catch(() => undefined);
}
