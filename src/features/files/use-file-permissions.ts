import { useMemo } from 'react';
import { useCan } from '../../lib/permissions';

/**
 * Which file controls to show: list file.read; contents and download
 * file.read-content; write, create-folder, copy, decompress and upload file.create; rename
 * file.update; delete file.delete; compress file.archive.
 */
export function useFilePermissions() {
  const readContent = useCan('file.read-content');
  const create = useCan('file.create');
  const update = useCan('file.update');
  const remove = useCan('file.delete');
  const archive = useCan('file.archive');
  // One object per permission set, so memoised rows do not re-render on every page render.
  return useMemo(() => ({ readContent, create, update, delete: remove, archive }), [readContent, create, update, remove, archive]);
}

export type FilePermissions = ReturnType<typeof useFilePermissions>;

/** Whether a selection leads anywhere: some mass action (move, compress, delete) is allowed. */
export function canActOnSelection(perms: FilePermissions): boolean {
  return perms.update || perms.archive || perms.delete;
}
