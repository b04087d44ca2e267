import type { FileObject } from '../../contract/files';

/*
 * What a listed entry is, from its mimetype (as the reference SPA decides) with the extension as a
 * fallback, because a plain Wings reports sniffed types and our daemon reports types by extension.
 */

const ARCHIVE_MIMES = new Set([
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-tar',
  'application/x-br',
  'application/x-bzip2',
  'application/gzip',
  'application/x-gzip',
  'application/tar+gzip',
  'application/x-lzip',
  'application/x-sz',
  'application/x-xz',
  'application/zstd',
  'application/zip',
  'application/x-7z-compressed',
]);

/** Archive names the daemon can extract. */
const ARCHIVE_NAME = /\.(zip|tar|tar\.gz|tgz)$/i;

/** Names that are never text, whatever the mimetype says. */
const BINARY_NAME =
  /\.(jar|class|mca|mcr|dat|db|sqlite|png|jpe?g|gif|webp|ico|bmp|pdf|so|dll|exe|bin|gz|tgz|zip|tar|xz|bz2|7z|rar|zst|ogg|mp3|wav|mp4)$/i;

export function isDirectory(entry: Pick<FileObject, 'is_file'>): boolean {
  return !entry.is_file;
}

export function isArchive(entry: Pick<FileObject, 'is_file' | 'mimetype' | 'name'>): boolean {
  if (!entry.is_file) return false;
  return ARCHIVE_MIMES.has(mimeBase(entry.mimetype)) || ARCHIVE_NAME.test(entry.name);
}

/** Files the editor may open: not directories, archives, images, jars or known binary formats. */
export function isEditable(entry: Pick<FileObject, 'is_file' | 'mimetype' | 'name'>): boolean {
  if (!entry.is_file || isArchive(entry)) return false;
  const mime = mimeBase(entry.mimetype);
  if (mime === 'application/java-archive' || mime === 'application/jar') return false;
  if (mime.startsWith('image/') && mime !== 'image/svg+xml') return false;
  if (mime.startsWith('audio/') || mime.startsWith('video/') || mime === 'application/pdf') return false;
  return !BINARY_NAME.test(entry.name);
}

function mimeBase(mime: string): string {
  return (mime.split(';')[0] ?? '').trim().toLowerCase();
}
