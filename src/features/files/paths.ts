import { t } from './messages';

/*
 * Volume paths as the SPA handles them: always absolute, `/`-separated, no trailing slash (except
 * the root itself), `.` and `..` resolved and clamped at the root. URLs carry each segment through
 * encodeURIComponent, so names with `#`, `?`, `%` or spaces survive a round trip.
 */

/** `a//b/../c/` → `/a/c`; `..` never climbs above the root. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** Joins `name` (which may itself hold `/` or `..`) onto `dir`; an absolute `name` replaces `dir`. */
export function joinPath(dir: string, name: string): string {
  return normalizePath(name.startsWith('/') ? name : `${dir}/${name}`);
}

/** The directory holding `path` (`/` for the root and its direct children). */
export function parentPath(path: string): string {
  const p = normalizePath(path);
  const cut = p.lastIndexOf('/');
  return cut <= 0 ? '/' : p.slice(0, cut);
}

/** The last segment of `path` ('' for the root). */
export function baseName(path: string): string {
  const p = normalizePath(path);
  return p.slice(p.lastIndexOf('/') + 1);
}

/** `to` as a path relative to directory `from`, both absolute: (`/a/b`, `/a/c/x`) → `../c/x`. */
export function relativePath(from: string, to: string): string {
  const a = segments(from);
  const b = segments(to);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common += 1;
  const up = a.slice(common).map(() => '..');
  return [...up, ...b.slice(common)].join('/') || '.';
}

export function segments(path: string): string[] {
  const p = normalizePath(path);
  return p === '/' ? [] : p.slice(1).split('/');
}

export interface Crumb {
  name: string;
  path: string;
}

/** `/a/b` → [{a, /a}, {b, /a/b}] (the root crumb is the caller's). */
export function breadcrumbs(path: string): Crumb[] {
  const parts = segments(path);
  return parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }));
}

function encodeSegments(path: string): string {
  return segments(path).map(encodeURIComponent).join('/');
}

/** The file-manager URL of a directory: `/server/:id/files/a%20b/c`. */
export function directoryHref(serverId: string, dir: string): string {
  const rest = encodeSegments(dir);
  return `/server/${encodeURIComponent(serverId)}/files${rest ? `/${rest}` : ''}`;
}

/**
 * The editor URL of a file: `/server/:id/file/a/b.txt`; `{ isNew: true }` adds `?new=1`, which
 * opens an empty, unsaved document for a file that does not exist yet.
 */
export function editorHref(serverId: string, file: string, options: { isNew?: boolean } = {}): string {
  return `/server/${encodeURIComponent(serverId)}/file/${encodeSegments(file)}${options.isNew ? '?new=1' : ''}`;
}

/** The router's splat (already decoded by React Router) as a volume path. */
export function pathFromSplat(splat: string | undefined): string {
  return normalizePath(splat ?? '');
}

/** Why a name typed into a dialog cannot be used, or null when it can. */
export function nameProblem(name: string, options: { allowSlash?: boolean } = {}): string | null {
  const trimmed = name.trim();
  if (!trimmed) return t('files.name.required');
  if (trimmed.includes('\0')) return t('files.name.nul');
  if (!options.allowSlash && trimmed.includes('/')) return t('files.name.slash');
  if (segments(trimmed).length === 0) return t('files.name.required');
  if (trimmed.length > 4096) return t('files.name.tooLong');
  return null;
}

/**
 * Why a name for something new (a folder, a file) cannot be used: as `nameProblem` with `/`
 * allowed for nested paths, and no `.` or `..` part, which would point outside the folder shown
 * or at the folder itself rather than at something new.
 */
export function newNameProblem(name: string): string | null {
  const dots = name
    .trim()
    .split('/')
    .some((part) => part === '.' || part === '..');
  return dots ? t('files.name.dots') : nameProblem(name, { allowSlash: true });
}
