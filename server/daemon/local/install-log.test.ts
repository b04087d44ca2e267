import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test as it } from '../../test/fixtures';
import { InstallLogs, plainLine } from './install-log';
import { MAX_LINE } from './line-reader';

// Issue 22 #7: the output of a failed reinstall was sent live to admins only and then lost.
const SERVER = '0b4c6f3e-8f1a-4e2b-9c3d-5a6b7c8d9e0f';
const now = () => new Date('2026-03-01T12:00:00Z');

/** An install that prints `lines` and ends as told. */
const script =
  (lines: string[], successful = false) =>
  async (onLine: (line: string) => void) => {
    for (const line of lines) onLine(line);
    return successful;
  };

describe("a server's last install output", () => {
  it('is replayed after a failure, with a heading and an end, and not after a success', async ({ tempDir }) => {
    const logs = new InstallLogs(path.join(tempDir, 'logs'), now);
    const live: string[] = [];
    expect(await logs.record(SERVER, script(['preparing', 'download failed']), (l) => live.push(l))).toBe(false);
    expect(live).toEqual(['preparing', 'download failed']);
    expect(logs.replay(SERVER)).toEqual({
      heading: 'Install output: the last install (started 2026-03-01 12:00 UTC) failed. Its output:',
      lines: ['preparing', 'download failed'],
      footer: 'End of the install output.',
    });
    // A later install replaces it; once one succeeds, nothing is replayed.
    await logs.record(SERVER, script(['all good'], true), () => undefined);
    expect(logs.replay(SERVER)).toBeNull();
    expect(fs.readFileSync(path.join(tempDir, 'logs', `${SERVER}.install.log`), 'utf8')).toBe('all good\n');
  });

  it('survives a restart, and an install the restart cut short is replayed as such', async ({ tempDir }) => {
    const dir = path.join(tempDir, 'logs');
    const first = new InstallLogs(dir, now);
    await first.record(SERVER, script(['step 1', 'exit 3']), () => undefined);
    await first.forget('never-installed'); // nothing to remove: no throw
    expect(new InstallLogs(dir, now).replay(SERVER)?.lines).toEqual(['step 1', 'exit 3']);

    // The panel stopped while the script ran: the record still says running.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = first.record(
      SERVER,
      async (onLine) => {
        onLine('downloading');
        await held;
        return true;
      },
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(first.replay(SERVER)).toMatchObject({ heading: expect.stringMatching(/is running/), lines: ['downloading'], footer: null });
    expect(new InstallLogs(dir, now).replay(SERVER)).toMatchObject({
      heading: expect.stringMatching(/was cut short when the panel stopped/),
      lines: ['downloading'],
      footer: 'End of the install output.',
    });
    release();
    await running;
  });

  // attacks T-SBX-LOG: an install script printing without end must not fill the host's disk.
  it('keeps at most twice its bound on disk and replays its newest lines, saying how many it kept', async ({ tempDir }) => {
    const dir = path.join(tempDir, 'logs');
    const logs = new InstallLogs(dir, now, 20_000, 50);
    const flood = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`);
    await logs.record(SERVER, script(flood), () => undefined);
    for (const file of fs.readdirSync(dir).filter((f) => f.includes('.install.log'))) {
      expect(fs.statSync(path.join(dir, file)).size).toBeLessThanOrEqual(20_000);
    }
    const replay = new InstallLogs(dir, now, 20_000, 50).replay(SERVER);
    expect(replay?.lines).toHaveLength(50);
    expect(replay?.lines.at(-1)).toBe(flood.at(-1));
    expect(logs.replay(SERVER)?.heading).toMatch(/its last 50 of 20000 lines/);
  });

  it('removes everything of a deleted server', async ({ tempDir }) => {
    const dir = path.join(tempDir, 'logs');
    const logs = new InstallLogs(dir, now);
    await logs.record(SERVER, script(['x']), () => undefined);
    await logs.forget(SERVER);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(logs.replay(SERVER)).toBeNull();
  });
});

// The script's output is the tenant's: it must not redraw the console, nor an operator's terminal reading the file.
describe('plainLine', () => {
  it('drops escape sequences, control characters and direction overrides, and keeps what a redrawn line shows', () => {
    expect(plainLine('\x1b[31mred\x1b[0m \x1b]0;title\x07\x1b]52;c;aGk=\x07ok')).toBe('red ok');
    expect(plainLine('\x1b[2A\x1b[2Kfake heading')).toBe('fake heading');
    expect(plainLine('\x9b2Jeight-bit CSI')).toBe('eight-bit CSI');
    expect(plainLine('10%\r50%\r100%\r')).toBe('100%');
    expect(plainLine('bell\x07 nul\x00 tab\tend')).toBe('bell\uFFFD nul\uFFFD tab\tend');
    expect(plainLine('abc\u202Egpj.exe')).toBe('abc\uFFFDgpj.exe');
    expect(plainLine('\uFFFD\uFFFD binary')).toBe('\uFFFD\uFFFD binary');
  });

  it('cuts a long line to the line limit', () => {
    expect(plainLine('y'.repeat(10 * MAX_LINE))).toHaveLength(MAX_LINE);
    expect(plainLine(`${'\x1b[1m'.repeat(5000)}tail`).length).toBeLessThanOrEqual(MAX_LINE);
  });
});
