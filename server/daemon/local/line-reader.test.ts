import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from './line-reader';

/** The lines `chunks` give, written one by one, and whether the end was seen. */
async function linesOf(chunks: (string | Buffer)[], maxLine?: number): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  const ended = new Promise<void>((resolve) => readLines(stream, (l) => lines.push(l), resolve, maxLine));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return lines;
}

describe('readLines', () => {
  it('splits on LF and CRLF across chunks, keeping a last line without a newline', async () => {
    expect(await linesOf(['one\r', '\ntw', 'o\nthr', 'ee'])).toEqual(['one', 'two', 'three']);
    expect(await linesOf(['\n\n'])).toEqual(['', '']);
  });

  it('keeps a character whose bytes arrive in two chunks', async () => {
    const bytes = Buffer.from('é€\n');
    expect(await linesOf([bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)])).toEqual(['é€']);
  });

  it('cuts a long line at the cap and drops the rest of it, however it arrives', async () => {
    expect(await linesOf(['abcdefgh', 'ijk\nnext\n'], 5)).toEqual(['abcde', 'next']);
    expect(await linesOf(['abc', 'de', 'fg', '\n'], 5)).toEqual(['abcde']);
    expect(await linesOf(['abcdefgh'], 5)).toEqual(['abcde']);
  });

  it('holds no more than the cap of a line with no newline at all (attacks T-SBX-LINE: 512 MiB crashed the panel)', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const ended = new Promise<void>((resolve) => readLines(stream, (l) => lines.push(l), resolve, 1024));
    const mib = 'x'.repeat(1024 * 1024);
    // 600 MiB: past V8's longest string, which readline would have built.
    for (let i = 0; i < 600; i += 1) stream.write(mib);
    stream.end('\nafter\n');
    await ended;
    expect(lines).toEqual(['x'.repeat(1024), 'after']);
  });
});
