import { randomBytes } from 'node:crypto';
import { constants as C } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Dir, Volume } from './confined';
import { TEMP_PREFIX } from './paths';
import type { Meter } from './quota';
import { DaemonError } from '../types';

/*
 * Temporary ".part" files: every write lands under a fresh random name (O_EXCL, no links), in the
 * target's own directory or the receive area (`receive-area.ts`), and is renamed over the
 * target only when complete, so an interrupted or oversized write leaves nothing half-written
 * under the real name. Their names are the daemon's own (`TEMP_PREFIX`): no client path reaches them.
 */

export const PART_PREFIX = TEMP_PREFIX;

export async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Iterates a stream without destroying it on an early exit: destroying an HTTP request would
 * reset the connection before the 413 is sent.
 */
function chunksOf(stream: Readable): AsyncIterable<Buffer> {
  return stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
}

/** Creates a new, empty part file in `dir` (O_EXCL, no links); returns its name and open handle. */
export async function openPart(vol: Volume, dir: Dir, mode: number): Promise<{ part: string; handle: FileHandle }> {
  const part = `${PART_PREFIX}${randomBytes(8).toString('hex')}.part`;
  return { part, handle: await vol.openFileAt(dir, part, C.O_WRONLY | C.O_CREAT | C.O_EXCL, mode) };
}

/**
 * Writes `content` through `handle`; returns its size. `too_large` past `maxBytes`; `meter` is
 * charged before each chunk is written, so a quota stops the write at its limit.
 */
export async function fillPart(handle: FileHandle, content: Buffer | Readable, maxBytes: number, meter?: Meter): Promise<number> {
  if (Buffer.isBuffer(content)) {
    if (content.length > maxBytes) throw new DaemonError('too_large', 'The file is larger than the allowed size.');
    await meter?.(content.length);
    await writeAll(handle, content);
    return content.length;
  }
  let total = 0;
  for await (const chunk of chunksOf(content)) {
    total += chunk.length;
    if (total > maxBytes) throw new DaemonError('too_large', 'The file is larger than the allowed size.');
    await meter?.(chunk.length);
    await writeAll(handle, chunk);
  }
  return total;
}

/** Writes `content` to a new part file in `dir`; returns its name. Limits as `fillPart`. */
export async function writePart(vol: Volume, dir: Dir, content: Buffer | Readable, maxBytes: number, mode: number, meter?: Meter): Promise<string> {
  const { part, handle } = await openPart(vol, dir, mode);
  try {
    await fillPart(handle, content, maxBytes, meter);
    await handle.chmod(mode); // the process umask may have narrowed the mode given to open()
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removePart(dir, part);
    throw error;
  }
  return part;
}

export async function removePart(dir: Dir, part: string): Promise<void> {
  await fs.unlink(dir.at(part)).catch(() => undefined);
}
