import type { Stats } from 'node:fs';
import type { DaemonFileStat } from '../types';

/*
 * Wings-shaped stat entries. Mimetypes come from the extension rather
 * than sniffing content as Wings does: listing 10,000 entries must not open 10,000 files. The
 * SPA decides "editable" and "archive" from these values.
 */

const TEXT = 'text/plain; charset=utf-8';
const MIME_BY_EXT: Record<string, string> = {
  txt: TEXT,
  log: TEXT,
  properties: TEXT,
  yml: TEXT,
  yaml: TEXT,
  sh: TEXT,
  md: TEXT,
  toml: TEXT,
  cfg: TEXT,
  conf: TEXT,
  ini: TEXT,
  env: TEXT,
  csv: TEXT,
  lang: TEXT,
  mcmeta: TEXT,
  secret: TEXT,
  bat: TEXT,
  cmd: TEXT,
  js: 'text/javascript; charset=utf-8',
  ts: TEXT,
  py: TEXT,
  lua: TEXT,
  sk: TEXT,
  json: 'application/json',
  json5: 'application/json',
  xml: 'text/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  zip: 'application/zip',
  tar: 'application/x-tar',
  jar: 'application/java-archive',
  xz: 'application/x-xz',
  bz2: 'application/x-bzip2',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  dat: 'application/octet-stream',
  mca: 'application/octet-stream',
  db: 'application/octet-stream',
};

/** Mimetype of a regular file by its name; `.tar.gz` is the archive type Wings reports for its own archives. */
export function mimeFor(name: string): string {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar.gz')) return 'application/tar+gzip';
  const dot = lower.lastIndexOf('.');
  if (dot <= 0) return lower === 'eula' || lower === 'readme' ? TEXT : 'application/octet-stream';
  return MIME_BY_EXT[lower.slice(dot + 1)] ?? 'application/octet-stream';
}

/** Go's `FileMode.String()`: type letters (`d`, `L`, `D`, `p`, `S`, `u`, `g`, `c`, `t`) then rwx bits. */
export function modeString(st: Pick<Stats, 'mode'>): string {
  const m = st.mode;
  const type = m & 0o170000;
  let prefix = '';
  if (type === 0o040000) prefix += 'd';
  if (type === 0o120000) prefix += 'L';
  if (type === 0o060000 || type === 0o020000) prefix += 'D';
  if (type === 0o010000) prefix += 'p';
  if (type === 0o140000) prefix += 'S';
  if (m & 0o4000) prefix += 'u';
  if (m & 0o2000) prefix += 'g';
  if (type === 0o020000) prefix += 'c';
  if (m & 0o1000) prefix += 't';
  const rwx = 'rwxrwxrwx';
  let bits = '';
  for (let i = 0; i < 9; i += 1) bits += m & (1 << (8 - i)) ? rwx[i] : '-';
  return (prefix || '-') + bits;
}

export function toFileStat(name: string, st: Stats): DaemonFileStat {
  const isDirectory = st.isDirectory();
  const isSymlink = st.isSymbolicLink();
  return {
    name,
    mode: modeString(st),
    modeBits: (st.mode & 0o777).toString(8),
    size: st.size,
    isFile: !isDirectory,
    isSymlink,
    isDirectory,
    mimetype: isDirectory ? 'inode/directory' : isSymlink ? 'inode/symlink' : st.isFile() ? mimeFor(name) : 'application/octet-stream',
    createdMs: st.ctimeMs,
    modifiedMs: st.mtimeMs,
  };
}
