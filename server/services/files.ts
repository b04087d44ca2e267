import type { FileObject } from '../../src/contract';
import type { DaemonFileStat } from '../daemon/types';
import { isoOffset } from '../lib/time';

/** Daemon file stats as the `file_object` resource. */

// Files of one directory mostly share their second (an install or an archive writes thousands at
// once), so formatted stamps are kept per second; the map is dropped when it grows large.
const stamps = new Map<number, string>();
function stampOf(ms: number): string {
  const second = Math.floor(ms / 1000);
  let stamp = stamps.get(second);
  if (stamp === undefined) {
    if (stamps.size >= 8192) stamps.clear();
    stamp = isoOffset(new Date(second * 1000));
    stamps.set(second, stamp);
  }
  return stamp;
}

export function fileObjectAttributes(stat: DaemonFileStat): FileObject {
  return {
    name: stat.name,
    mode: stat.mode,
    mode_bits: stat.modeBits,
    size: stat.size,
    is_file: stat.isFile,
    is_symlink: stat.isSymlink,
    mimetype: stat.mimetype,
    created_at: stampOf(stat.createdMs),
    modified_at: stampOf(stat.modifiedMs),
  };
}

export function renderFileObject(stat: DaemonFileStat) {
  return { object: 'file_object' as const, attributes: fileObjectAttributes(stat) };
}
