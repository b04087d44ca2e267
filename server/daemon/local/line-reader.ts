import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/*
 * Lines of a tenant's output, each at most `maxLine` characters. readline holds a whole line
 * until its newline: a program printing half a gigabyte without one made a string past V8's
 * limit and the throw took the panel down with every server. Here the part of a line past the
 * cap is dropped as it arrives (Wings cuts long lines too), so memory stays bounded whatever the
 * program prints, and nothing it prints can throw.
 */

/** Longest line passed on; the rest of a longer one is dropped. */
export const MAX_LINE = 8192;

/** Calls `onLine` for each line of `stream` (CRLF or LF, the last one without a newline too); `onEnd` once it ends. */
export function readLines(stream: Readable, onLine: (line: string) => void, onEnd?: () => void, maxLine = MAX_LINE): void {
  const decoder = new StringDecoder('utf8');
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd?.();
  };
  let current = '';
  let cut = false;
  const take = (text: string) => {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const piece = newline === -1 ? text.slice(start) : text.slice(start, newline);
      if (!cut) {
        current += piece.slice(0, maxLine - current.length);
        if (current.length >= maxLine && newline === -1) cut = true;
      }
      if (newline === -1) return;
      emit();
      start = newline + 1;
    }
  };
  const emit = () => {
    const line = current.endsWith('\r') ? current.slice(0, -1) : current;
    current = '';
    cut = false;
    onLine(line);
  };
  stream.on('data', (chunk: Buffer | string) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
  stream.on('end', () => {
    take(decoder.end());
    if (current !== '' || cut) emit();
    end();
  });
  // A pipe to a process that was killed may fail; what was read so far has been passed on.
  stream.on('error', end);
}
