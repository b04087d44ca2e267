import { resolveIn } from '../daemon/local/paths';

/*
 * What a rename's audit entry says. The file manager moves a file into another folder by naming a
 * destination relative to the folder it is in (`../backups/world.zip`); written as sent, the entry
 * would read "Renamed /a/world.zip to /a/../backups/world.zip". Each path is resolved instead and
 * the entry's `directory` is the deepest folder holding every source and destination, so both
 * sides read as plain paths below it: "Renamed /a/world.zip to /backups/world.zip".
 */

export type RenameProperties = { directory: string; files: { from: string; to: string }[] };

/** The properties of `server:file.rename` for the moves that happened (`root` and names as the client sent them). */
export function renameProperties(root: string, moved: readonly { from: string; to: string }[]): RenameProperties {
  const resolved = moved.map((m) => ({ from: resolveIn(root, m.from), to: resolveIn(root, m.to) }));
  let common = resolveIn(root, '');
  for (const { from, to } of resolved) common = sharedPrefix(sharedPrefix(common, from.slice(0, -1)), to.slice(0, -1));
  const below = (path: string[]) => path.slice(common.length).join('/');
  return { directory: `/${common.join('/')}`, files: resolved.map(({ from, to }) => ({ from: below(from), to: below(to) })) };
}

function sharedPrefix(a: readonly string[], b: readonly string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return a.slice(0, n);
}
