import { DaemonError, NOT_FOUND_MESSAGE } from '../types';

/*
 * Lexical half of path safety. A client path is decoded exactly once (by the HTTP layer) and
 * then only split here: `/` is the one separator, a backslash is an ordinary file-name character
 * (Linux semantics, as Wings on Linux), nothing is percent-decoded or Unicode-normalised again.
 * Paths are rooted at the volume, so `/etc/passwd` means `<volume>/etc/passwd`. `..` is applied
 * lexically and may never climb above the volume root. The on-disk half (symlinks, swapped
 * directories) is `confined.ts`.
 */

export const MAX_PATH_BYTES = 4096;

/**
 * Names the daemon keeps for its own temporary files (`.aerie-<hex>.part`, `.aerie-extract-*`).
 * No client path may name one at any depth, as source or target: such a path is `not_found` like
 * an escape, a new name (upload, archive member) is refused, and listings hide them, so a member
 * can never read, replace or swap a file the daemon is still writing.
 */
export const TEMP_PREFIX = '.aerie-';
/** The receive area beside the volumes (`receive-area.ts`): bodies wait here until the write is placed. */
export const TEMP_DIR = `${TEMP_PREFIX}tmp`;

export const isTempName = (name: string): boolean => name.startsWith(TEMP_PREFIX);

export const missing = (): DaemonError => new DaemonError('not_found', NOT_FOUND_MESSAGE);

/**
 * Resolves `input` against `base` (components below the volume root) and returns the clean
 * components below the volume root; an escape, a NUL byte, an over-long path or a component that
 * names a temporary file is `not_found`.
 */
export function resolveBeneath(base: readonly string[], input: string): string[] {
  if (input.includes('\0') || Buffer.byteLength(input) > MAX_PATH_BYTES) throw missing();
  const out = input.startsWith('/') ? [] : [...base];
  for (const part of input.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) throw missing();
      out.pop();
    } else {
      if (isTempName(part)) throw missing();
      out.push(part);
    }
  }
  return out;
}

/** `root` then `file` relative to it, both client strings. */
export function resolveIn(root: string, file: string): string[] {
  const base = resolveBeneath([], root);
  // A file name in a JSON body is relative to `root` even when it starts with `/`.
  return resolveBeneath(base, file.replace(/^\/+/, ''));
}

/** True when `inner` lies strictly below `outer`. */
export function isBelow(outer: readonly string[], inner: readonly string[]): boolean {
  return inner.length > outer.length && outer.every((c, i) => inner[i] === c);
}

/** The display form of components: `/a/b`. */
export function display(components: readonly string[]): string {
  return `/${components.join('/')}`;
}

/**
 * A single new entry name (upload name, archive member component): no separators, no NUL, not
 * `.`/`..`/empty, not a temporary file's name, at most 255 bytes. Returns null when unusable.
 */
export function cleanName(name: string): string | null {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0') || isTempName(name)) return null;
  if (Buffer.byteLength(name) > 255) return null;
  return name;
}
