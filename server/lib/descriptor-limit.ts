import { execFileSync } from 'node:child_process';

/*
 * Node has no setrlimit. Node itself raises RLIMIT_NOFILE's soft limit to the hard one at start,
 * but not every build or embedding does (`--no-adjust-resource-limits`), so the panel asks
 * util-linux's `prlimit` for its own process, and the connection caps follow what it got.
 */

export interface DescriptorLimit {
  /** The soft limit now in force: how many descriptors the panel may hold. */
  soft: number;
  hard: number;
}

/** Below this many descriptors the default connection caps shrink, which start-up says. */
export const LOW_DESCRIPTOR_LIMIT = 16_384;

// Linux never reports an "unlimited" open-file limit (it cannot pass fs.nr_open); it would read as unknown.
const parseLimit = (text: string | undefined): number | null => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

function readLimit(pid: number): DescriptorLimit | null {
  const out = execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'SOFT,HARD'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [soft, hard] = out.trim().split(/\s+/).map(parseLimit);
  return soft && hard ? { soft, hard } : null;
}

/**
 * Raises this process's open-file soft limit to its hard limit and returns the limits then in
 * force; null when `prlimit` is missing or fails (the limit is then what the process started with).
 */
export function raiseDescriptorLimit(pid: number = process.pid): DescriptorLimit | null {
  try {
    const now = readLimit(pid);
    if (!now || now.soft >= now.hard) return now;
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${now.hard}:${now.hard}`], { stdio: 'ignore' });
    return readLimit(pid);
  } catch {
    return null;
  }
}
