import { joinPath } from './paths';

/** Why renaming `name` (in `dir`) to `input` cannot work, or null. */
export function renameProblem(dir: string, name: string, input: string, isFolder: boolean): string | null {
  const from = joinPath(dir, name);
  const to = joinPath(dir, input.trim());
  if (to === '/') return 'Choose a name, not the root folder.';
  if (to === from) return 'That is its current name.';
  if (isFolder && to.startsWith(`${from}/`)) return 'A folder cannot be moved into itself.';
  return null;
}

/** Why moving `folders` (and files) from `dir` into `input` cannot work, or null. */
export function moveProblem(dir: string, folders: readonly string[], input: string): string | null {
  const dest = joinPath(dir, input.trim());
  if (dest === dir) return 'They are already in this folder.';
  for (const f of folders) {
    const from = joinPath(dir, f);
    if (dest === from || dest.startsWith(`${from}/`)) return `“${f}” cannot be moved into itself.`;
  }
  return null;
}
