import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { test as it } from '../../test/fixtures';
import { ConsoleLog } from './console-log';

/** Settles once the log's pending output is on disk. */
async function settled(file: string, last: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').endsWith(`${last}\n`)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${last} never reached ${file}`);
}

describe('a server console log', () => {
  it('keeps the last lines in memory and replays the files after a restart', async ({ tempDir }) => {
    const file = path.join(tempDir, 'logs', 'server.log');
    const log = new ConsoleLog(file, 3);
    for (const line of ['a', 'b', 'c', 'd']) log.append(line);
    expect(log.tail(10)).toEqual(['b', 'c', 'd']);
    await settled(file, 'd');
    expect(new ConsoleLog(file, 3).tail(2)).toEqual(['c', 'd']);
  });

  // Issue 21, attacks T-SBX-LOG: a program's output grew its log by 300 MiB in 15 s, without bound.
  it('rotates its file past the bound and keeps one older file, so the logs never pass twice the bound', async ({ tempDir }) => {
    const file = path.join(tempDir, 'logs', 'server.log');
    const log = new ConsoleLog(file, 5, 10_000);
    for (let i = 0; i < 5000; i += 1) log.append(`line ${i} ${'x'.repeat(40)}`);
    await settled(file, `line 4999 ${'x'.repeat(40)}`);
    const sizes = [file, `${file}.1`].map((f) => fs.statSync(f).size);
    expect(sizes[0]).toBeLessThanOrEqual(10_000);
    expect(sizes[1]).toBeLessThanOrEqual(10_000);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['server.log', 'server.log.1']);
    // A restart replays the newest lines, across the rotation.
    expect(new ConsoleLog(file, 2).tail(2)).toEqual([`line 4998 ${'x'.repeat(40)}`, `line 4999 ${'x'.repeat(40)}`]);
  });
});
