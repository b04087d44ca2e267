import { lstatOrNull } from './confined';
import { missing } from './paths';
import { DaemonError } from '../types';

/* Small rules of the local daemon's file operations, kept apart from the operations themselves. */

export const isDirectoryError = () => new DaemonError('bad_request', 'The requested path is a directory.');
export const notRegularError = () => new DaemonError('bad_request', 'The requested path is not a regular file.');
export const tooLargeError = () => new DaemonError('too_large', 'The file is larger than the allowed size.');

/**
 * The mode a new file replacing `target` gets: the old file's permission bits (an edited
 * start.sh stays executable) or 0644. A directory, link or special file is not replaced.
 */
export async function replaceableMode(target: string): Promise<number> {
  const st = await lstatOrNull(target);
  if (!st) return 0o644;
  if (st.isDirectory()) throw isDirectoryError();
  if (st.isSymbolicLink()) throw missing(); // never write through (or over) a link
  if (!st.isFile()) throw notRegularError();
  return st.mode & 0o777;
}

/** `name copy.ext`, `name copy 1.ext` … `name copy 50.ext`; `.tar.gz` stays together. */
export function* copyNames(name: string): Generator<string> {
  const dot = name.lastIndexOf('.');
  let ext = dot >= 0 ? name.slice(dot) : '';
  let base = dot >= 0 ? name.slice(0, dot) : name;
  if (base.endsWith('.tar')) {
    ext = `.tar${ext}`;
    base = base.slice(0, -4);
  }
  yield `${base} copy${ext}`;
  for (let i = 1; i <= 50; i += 1) yield `${base} copy ${i}${ext}`;
  yield `${base}copy.${new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')}${ext}`;
}
