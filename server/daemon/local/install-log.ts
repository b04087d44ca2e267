import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import * as z from 'zod/mini';
import { ConsoleLog } from './console-log';
import { MAX_LINE } from './line-reader';

/*
 * The output of each server's last install, kept so that a console opened after a failed
 * reinstall shows why it failed (Wings keeps an install log per server for the same reason). It
 * lives in the data dir beside the console logs, never in the volume the tenant controls, and is
 * bounded as they are: past `maxBytes` the file is rotated once, so an install keeps at most
 * twice that on disk. Its lines are the tenant's script's, so they are made plain text first
 * (`plainLine`). Beside it, `<uuid>.install.json` says how that install ended, which decides
 * whether a console replays it: while it runs, and after it failed or was cut short.
 */

/** The current install log is rotated past this (the rotated one is kept): 1 MiB on disk at most. */
export const INSTALL_LOG_BYTES = 512 * 1024;
/** Lines of the last install a console replays. */
export const INSTALL_REPLAY_LINES = 300;

const recordSchema = z.object({
  outcome: z.enum(['running', 'failed', 'succeeded']),
  started_at: z.string(),
  ended_at: z.optional(z.string()),
  lines: z.optional(z.number()),
});
type InstallRecord = z.infer<typeof recordSchema>;

/** What a console is shown of the last install: a heading, its last lines, and a closing note once it ended. */
export interface InstallReplay {
  heading: string;
  lines: string[];
  footer: string | null;
}

// Control characters other than tab, and the bidirectional overrides that reorder what follows.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A line of a tenant's output as plain text: what a terminal would leave of a line redrawn with
 * carriage returns (a progress bar), without escape sequences (colours, cursor moves, titles,
 * clipboard writes, links) or other control characters, at most `MAX_LINE` long. Nothing in it can
 * redraw the console around it or the terminal of an operator who reads the file on the host.
 */
export function plainLine(raw: string): string {
  const shown = raw.split('\r').findLast((part) => part !== '') ?? '';
  return stripVTControlCharacters(shown.slice(0, 2 * MAX_LINE))
    .replace(UNSAFE, '\uFFFD')
    .slice(0, MAX_LINE);
}

export class InstallLogs {
  private readonly logs = new Map<string, ConsoleLog>();
  private readonly running = new Map<string, { started: Date; lines: number }>();

  constructor(
    private readonly dir: string,
    private readonly now: () => Date,
    private readonly maxBytes = INSTALL_LOG_BYTES,
    private readonly replayLines = INSTALL_REPLAY_LINES,
  ) {}

  /**
   * Runs an install with its output kept: the previous install's log is replaced, each line made
   * plain, kept and passed to `live`, and how it ended recorded (a throw counts as a failure).
   */
  async record(server: string, script: (onLine: (line: string) => void) => Promise<boolean>, live: (line: string) => void): Promise<boolean> {
    await this.clear(server);
    const log = this.logOf(server);
    const run = { started: this.now(), lines: 0 };
    this.running.set(server, run);
    this.write(server, { outcome: 'running', started_at: run.started.toISOString() });
    let successful = false;
    try {
      successful = await script((raw) => {
        const line = plainLine(raw);
        run.lines += 1;
        log.append(line);
        live(line);
      });
      return successful;
    } finally {
      // On disk before the install is reported ended, so whatever reacts to its end finds it all.
      await log.settled();
      this.running.delete(server);
      const ended = { started_at: run.started.toISOString(), ended_at: this.now().toISOString(), lines: run.lines };
      this.write(server, { outcome: successful ? 'succeeded' : 'failed', ...ended });
      // A successful install is not replayed: its lines need not stay in memory.
      if (successful) this.logs.delete(server);
    }
  }

  /** What a console connecting now is shown of the last install; null when none runs and the last one succeeded. */
  replay(server: string): InstallReplay | null {
    const record = this.read(server);
    if (!record || record.outcome === 'succeeded') return null;
    const lines = this.logOf(server).tail(this.replayLines);
    const kept = (count: number | undefined) => (count !== undefined && count > lines.length ? ` (its last ${lines.length} of ${count} lines)` : '');
    const started = record.started_at.replace('T', ' ').slice(0, 16);
    if (record.outcome === 'running' && this.running.has(server)) {
      return {
        heading: `Install output: the install started ${started} UTC is running${kept(this.running.get(server)?.lines)}.`,
        lines,
        footer: null,
      };
    }
    const how = record.outcome === 'failed' ? 'failed' : 'was cut short when the panel stopped';
    return {
      heading: `Install output: the last install (started ${started} UTC) ${how}${kept(record.lines)}. Its output:`,
      lines,
      footer: lines.length === 0 ? 'End of the install output (the script printed nothing).' : 'End of the install output.',
    };
  }

  /** Removes what is kept of a deleted server's installs. */
  async forget(server: string): Promise<void> {
    await this.clear(server);
    fs.rmSync(this.file(server, '.install.json'), { force: true });
  }

  private async clear(server: string): Promise<void> {
    await this.logs.get(server)?.settled();
    this.logs.delete(server);
    for (const suffix of ['.install.log', '.install.log.1']) fs.rmSync(this.file(server, suffix), { force: true });
  }

  private logOf(server: string): ConsoleLog {
    let log = this.logs.get(server);
    if (!log) this.logs.set(server, (log = new ConsoleLog(this.file(server, '.install.log'), this.replayLines, this.maxBytes)));
    return log;
  }

  private read(server: string): InstallRecord | null {
    try {
      const parsed = recordSchema.safeParse(JSON.parse(fs.readFileSync(this.file(server, '.install.json'), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null; // no install recorded (or a record cut by a crash: nothing to say about it)
    }
  }

  /** Written whole (a temporary file renamed over), so a crash leaves the old record or the new one. */
  private write(server: string, record: InstallRecord): void {
    const file = this.file(server, '.install.json');
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(record), { mode: 0o600 });
      fs.renameSync(`${file}.tmp`, file);
    } catch {
      // Unrecorded, the install is not replayed; its output was still sent live.
    }
  }

  private file(server: string, suffix: string): string {
    return path.join(this.dir, `${server}${suffix}`);
  }
}
