import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Receives a body of unknown length into a private temporary file (never whole in memory), at
 * most `maxBytes` of it (`tooLarge()` past that), then hands `send` a stream of it with its
 * length, and removes the file whatever happens. A body that fails part-way sends nothing.
 */
export async function spooled<T>(
  source: Readable,
  maxBytes: number,
  tooLarge: () => Error,
  send: (body: { stream: Readable; length: number }) => Promise<T>,
): Promise<T> {
  // The body may fail before the pipeline below listens: its error is kept for the pipeline, not thrown.
  source.on('error', () => undefined);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aerie-wings-'));
  try {
    const file = path.join(dir, 'body');
    let length = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        length += chunk.length;
        done(length > maxBytes ? tooLarge() : null, chunk);
      },
    });
    await pipeline(source, counter, createWriteStream(file, { mode: 0o600 }));
    return await send({ stream: createReadStream(file), length });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
