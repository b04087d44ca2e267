import type { FileHandle } from 'node:fs/promises';
import { DaemonError } from '../types';
import { mapFsError, type Volume } from './confined';
import { placeInto, replacing } from './file-writes';
import type { Budget, Reservation } from './quota';
import { Received } from './receive-area';

/** A file being written by pieces (`openWrite`): placed by `close`, dropped by `abort`. */
export interface FileWriter {
  write(data: Uint8Array, position: number): Promise<void>;
  /** Places the file; refused (nothing stored) when a write failed or the limit is passed. */
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** What a writer is given by its server's file manager. */
export interface WriterSource {
  vol: Volume;
  receiveArea(): Promise<Volume>;
  /** Admits the write (refused during an exclusive hold) and reserves against the server's limits. */
  reserve(): Promise<Reservation>;
  /** Runs the placing under the server's lock and limits, charging `own`'s body to it. */
  place(fn: (budget: Budget) => Promise<void>, own: Reservation): Promise<void>;
  /** The current content, for `keep`. */
  openCurrent(): Promise<{ handle: FileHandle }>;
}

/**
 * A file written piece by piece at any offset (SFTP, chunked uploads): received aside against a
 * reservation, each piece charged to the disk limit as it arrives, and placed all or nothing by
 * `close`. With `keep`, the current content is copied first (an append or a resumed upload).
 */
export async function openWriter(
  source: WriterSource,
  comps: string[],
  name: string,
  options: { maxBytes: number; keep: boolean },
): Promise<FileWriter> {
  const { vol } = source;
  // Refused at once: a missing folder, a directory or a link in the way.
  await vol.withDir(comps, async () => undefined);
  const freed = await replacing(vol, comps, name);
  const reservation = await source.reserve();
  let received: Received | undefined;
  try {
    reservation.credit(freed);
    const body = (received = await Received.start(await source.receiveArea()));
    const meter = await reservation.fileMeter();
    if (options.keep && freed > 0) {
      const { handle } = await source.openCurrent();
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
          await source.place((budget) => placeInto(vol, comps, name, body, budget), reservation);
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
