import { t } from './messages';
import { joinPath } from './paths';

/** Why renaming `name` (in `dir`) to `input` cannot work, or null. */
export function renameProblem(dir: string, name: string, input: string, isFolder: boolean): string | null {
  const from = joinPath(dir, name);
  const to = joinPath(dir, input.trim());
  if (to === '/') return t('files.rename.root');
  if (to === from) return t('files.rename.same');
  if (isFolder && to.startsWith(`${from}/`)) return t('files.rename.intoItself');
  return null;
}

/** Why moving `folders` (and files) from `dir` into `input` cannot work, or null. */
export function moveProblem(dir: string, folders: readonly string[], input: string): string | null {
  const dest = joinPath(dir, input.trim());
  if (dest === dir) return t('files.move.same');
  for (const f of folders) {
    const from = joinPath(dir, f);
    if (dest === from || dest.startsWith(`${from}/`)) return t('files.move.intoItself', { name: f });
  }
  return null;
}
