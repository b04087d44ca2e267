import type { IncomingMessage } from 'node:http';

/** Thrown (as itself) by `readBounded` for an answer past its limit. */
export const tooLargeAnswer = new Error('The answer is larger than allowed.');

/**
 * An answer's body, refused as soon as it is known to pass `limit` bytes: by its declared
 * Content-Length before anything is read, else by counting, so a node answering gigabytes costs
 * the panel at most `limit` bytes of memory.
 */
export async function readBounded(response: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.destroy();
    throw tooLargeAnswer;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > limit) {
      response.destroy();
      throw tooLargeAnswer;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}
