import type { ServerConfiguration } from '../capabilities';
import { DaemonError } from '../types';
import { canLimitServers, NO_LIMITS, RUNNING_UNLIMITED, type CgroupRoots } from './cgroup-roots';
import type { DiskMeter } from './disk-meter';
import { MISSING_PASTA } from './network';
import type { PowerContext } from './power-context';
import { MISSING_BWRAP } from './sandbox';

/*
 * What a start settles before it makes a sandbox (`server-process.ts`): whether the server may
 * start on this machine now, and the limits it runs under. A refusal the user can act on is said
 * on the console too, as Wings does.
 */

export const MIB = 1024 * 1024;
export const mib = (bytes: number): number => Math.round(bytes / MIB);

export interface StartPlan {
  /** The bubblewrap program, found. */
  bwrap: string;
  /** Where its cgroups are made; null: cgroups are off. */
  roots: CgroupRoots | null;
  memoryLimit: number;
  diskLimit: number;
}

/** Refuses a start that cannot go ahead (after saying why with `say`), or gives its plan. */
export async function planStart(
  ctx: PowerContext,
  configuration: ServerConfiguration,
  disk: DiskMeter,
  say: (line: string) => void,
): Promise<StartPlan> {
  if (configuration.settings.suspended) throw new DaemonError('conflict', 'This server is suspended.');
  if (!ctx.bwrap) {
    say(MISSING_BWRAP);
    throw new DaemonError('unavailable', MISSING_BWRAP);
  }
  const roots = ctx.cgroups ? ctx.cgroupRoots() : null;
  if (roots && !canLimitServers(roots)) {
    say(ctx.allowUnlimited ? RUNNING_UNLIMITED : NO_LIMITS);
    if (!ctx.allowUnlimited) throw new DaemonError('unavailable', NO_LIMITS);
  }
  if (!ctx.network.pasta && !ctx.network.allowHostNetwork) {
    say(MISSING_PASTA);
    throw new DaemonError('unavailable', MISSING_PASTA);
  }
  const { memory_limit, disk_space } = configuration.settings.build;
  const memoryLimit = Math.max(0, memory_limit) * MIB;
  const diskLimit = Math.max(0, disk_space) * MIB;
  // Wings: a server over its disk limit does not start (its files can still be deleted).
  if (diskLimit > 0 && (await disk.measureNow()) > diskLimit) {
    const message = `This server uses ${mib(disk.bytes)} MiB of its ${mib(diskLimit)} MiB disk limit: delete files before starting it.`;
    say(message);
    throw new DaemonError('no_space', message);
  }
  return { bwrap: ctx.bwrap, roots, memoryLimit, diskLimit };
}
