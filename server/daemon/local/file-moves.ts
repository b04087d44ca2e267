import fs from 'node:fs/promises';
import { DaemonError } from '../types';
import { lstatOrNull, type Volume } from './confined';

export interface MovePair {
  from: string[];
  to: string[];
  asGiven: { from: string; to: string };
}

/** Moves each pair in turn; returns the pairs (as the client gave them) whose source existed. */
export async function movePairs(vol: Volume, pairs: MovePair[], beforeCreate: () => Promise<void>): Promise<MovePair['asGiven'][]> {
  const moved: MovePair['asGiven'][] = [];
  for (const { from, to, asGiven } of pairs) {
    const fromName = from[from.length - 1] as string;
    const toName = to[to.length - 1] as string;
    await vol.withDir(from.slice(0, -1), async (src) => {
      if (!(await lstatOrNull(src.at(fromName)))) return; // a missing source is skipped, as Wings does
      await vol.withDir(
        to.slice(0, -1),
        async (dst) => {
          if (await lstatOrNull(dst.at(toName))) throw new DaemonError('bad_request', 'Cannot move or rename file, destination already exists.');
          await fs.rename(src.at(fromName), dst.at(toName));
        },
        { create: true, beforeCreate },
      );
      moved.push(asGiven);
    });
  }
  return moved;
}

/** Deletes each target (components beneath the volume; `given`: as the client named them); returns the names that existed. */
export async function deleteTargets(vol: Volume, targets: string[][], given: string[]): Promise<string[]> {
  // Every parent must be reachable before anything is deleted, so a hostile entry changes nothing.
  const parents = new Map(targets.map((t) => [t.slice(0, -1).join('/'), t.slice(0, -1)]));
  for (const parent of parents.values()) await vol.withDir(parent, async () => undefined);
  const deleted: string[] = [];
  for (const [i, target] of targets.entries()) {
    const name = target[target.length - 1] as string;
    await vol.withDir(target.slice(0, -1), async (dir) => {
      if (!(await lstatOrNull(dir.at(name)))) return;
      await vol.removeAt(dir, name);
      deleted.push(given[i] ?? name);
    });
  }
  return deleted;
}
