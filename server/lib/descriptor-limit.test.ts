import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { raiseDescriptorLimit } from './descriptor-limit';

describe('raiseDescriptorLimit', () => {
  it("raises a process's open-file soft limit to its hard one", ({ onTestFinished }) => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    onTestFinished(() => void child.kill());
    const pid = child.pid;
    if (pid === undefined) throw new Error('sleep did not start');
    const hard = Number(
      execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'HARD'], { encoding: 'utf8' }).trim(),
    );
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=256:${hard}`]);
    expect(raiseDescriptorLimit(pid)).toEqual({ soft: hard, hard });
  });

  it('says it does not know for a process that is gone', () => {
    expect(raiseDescriptorLimit(2 ** 22 + 1)).toBeNull();
  });
});
