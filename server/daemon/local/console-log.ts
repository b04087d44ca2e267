import fs from 'node:fs';
import path from 'node:path';
import { MAX_LINE } from './line-reader';

/*
 * A server's console output: the recent lines in memory (replayed to a console that connects)
 * and a log file in the data dir, outside the volume, so the console replays after a restart.
 * The file is bounded, as Wings bounds its own: past `maxBytes` it becomes `<uuid>.log.1`
 * (replacing the older one) and a new file starts, so a server keeps at most twice that on disk
 * however fast its program prints. Output arriving faster than the disk takes it waits in memory
 * up to about the same bound; past it the oldest waiting output is dropped (it is still in the history
 * and was sent live).
 */

/** A server's log file is rotated past this size (the previous one is kept as `.1`). */
export const DEFAULT_LOG_BYTES = 4 * 1024 * 1024;

export class ConsoleLog {
  readonly history: string[] = [];
  private pending = '';
  private writing = false;
  /** The write under way, for `settled`. */
  private current: Promise<void> = Promise.resolve();
  /** Bytes in the current file, once known (read at the first write). */
  private size: number | null = null;

  constructor(
    private readonly file: string,
    private readonly historyLines: number,
    private readonly maxBytes = DEFAULT_LOG_BYTES,
  ) {}

  append(line: string): void {
    this.history.push(line);
    if (this.history.length > this.historyLines) this.history.splice(0, this.history.length - this.historyLines);
    this.pending += `${line}\n`;
    // Trimmed only at twice the bound, so a program flooding the console costs one copy per bound, not per line.
    if (this.pending.length > 2 * this.maxBytes)
      this.pending = this.pending.slice(this.pending.indexOf('\n', this.pending.length - this.maxBytes) + 1);
    if (!this.writing) this.flush();
  }

  /** The last `lines` lines: the history, or after a restart the tail of the log files. */
  tail(lines: number): string[] {
    if (this.history.length === 0) this.load();
    return this.history.slice(-lines);
  }

  /** Resolves once what was appended so far is written (or failed to be): a file can then be removed without a late write bringing it back. */
  async settled(): Promise<void> {
    while (this.writing) await this.current;
  }

  /** Writes what is pending, one write at a time so lines stay in order; rotates the file first when it would pass the bound. */
  private flush(): void {
    const text = this.pending;
    this.pending = '';
    this.writing = true;
    this.current = this.write(text).finally(() => {
      this.writing = false;
      if (this.pending !== '') this.flush();
    });
  }

  private async write(pending: string): Promise<void> {
    let text = Buffer.from(pending);
    // More than a whole file's worth waited: only its newest lines are kept.
    if (text.length > this.maxBytes) text = text.subarray(text.indexOf(10, text.length - this.maxBytes) + 1);
    try {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      this.size ??= await fs.promises.stat(this.file).then(
        (st) => st.size,
        () => 0,
      );
      const bytes = text.length;
      if (this.size > 0 && this.size + bytes > this.maxBytes) {
        await fs.promises.rename(this.file, `${this.file}.1`);
        this.size = 0;
      }
      await fs.promises.appendFile(this.file, text, { mode: 0o600 });
      this.size += bytes;
    } catch {
      this.size = null; // measured again at the next write; the lines are still in the history
    }
  }

  private load(): void {
    const wanted = this.historyLines * MAX_LINE;
    const current = readTail(this.file, wanted);
    const text = current.length < wanted ? readTail(`${this.file}.1`, wanted - current.length) + current : current;
    this.history.push(
      ...text
        .split('\n')
        .filter((l) => l !== '')
        .slice(-this.historyLines),
    );
  }
}

/** The last `bytes` bytes of a file ('' when there is none). */
function readTail(file: string, bytes: number): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, bytes);
      const buf = Buffer.alloc(length);
      fs.readSync(fd, buf, 0, length, size - length);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
