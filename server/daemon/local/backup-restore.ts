import { constants as C } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import type { ConsoleEvent } from '../capabilities';
import { DaemonError } from '../types';
import { extractArchive } from './archive-extract';
import { isErrno, type Volume } from './confined';
import type { DaemonLog } from './events';
import type { ServerLocks } from './locks';
import { missing } from './paths';
import type { DiskQuotas } from './quota';
import type { Volumes } from './volumes';

/*
 * A restore, run as a backup job (`backups.ts`). It holds the server's lock throughout, so no file
 * write or power action lands in a volume being replaced, stops the server, and extracts with
 * decompress's hostile-archive checks under the disk limit, keeping every name a Linux volume may
 * hold. Without truncate the archive is laid over the volume (files it holds are reset, newer ones
 * stay). With truncate it is extracted into a staging folder beside the volume, which then takes
 * the volume's place (`volume-swap.ts`): a failure, or a crash at any moment, leaves the old files
 * or the backup's, never a mix, and only the archive counts against the limit.
 */

export const RESTORING = 'The server is restoring a backup.';

export interface RestoreParts {
  volumes: Volumes;
  locks: ServerLocks;
  quotas: DiskQuotas;
  /** Tells the server's consoles (progress lines, the end of a backup or restore). */
  announce: (server: string, event: ConsoleEvent) => void;
  /** Stops the server's process, if it runs (a restore replaces its files). */
  halt: (server: string) => Promise<void>;
  log: DaemonLog;
}

export interface RestoreJob {
  server: string;
  backup: string;
  /** The archive, open (closed here once the restore has ended). */
  archive: FileHandle;
  vol: Volume;
  limits: { bytes: number; entries: number };
  truncate: boolean;
}

/** Why a backup or restore failed, for the console: the daemon's own sentence, or a generic one (logged). */
export function reasonOf(error: unknown): string {
  if (error instanceof DaemonError) return error.message;
  if (isErrno(error, 'ENOSPC', 'EDQUOT')) return 'the node ran out of disk space.';
  return 'an unexpected error occurred.';
}

/** A completed archive (never a link); `not_found` otherwise. */
export async function openArchive(file: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, C.O_RDONLY | C.O_NOFOLLOW);
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ELOOP', 'ENOTDIR')) throw missing();
    throw error;
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw missing();
  }
  return handle;
}

/** Runs the restore; true when the volume holds the backup's files. */
export async function restoreArchive(parts: RestoreParts, job: RestoreJob): Promise<boolean> {
  const { server, backup, archive, vol, limits, truncate } = job;
  const say = (line: string) => parts.announce(server, { type: 'daemon message', line });
  const name = `${backup}.tar.gz`;
  // The budget holds the bytes to the disk limit.
  const caps = { maxBytes: Number.MAX_SAFE_INTEGER, maxEntries: limits.entries };
  let successful = false;
  try {
    await parts.locks.exclusive(server, RESTORING, async () => {
      say(`Restoring backup ${backup}${truncate ? ', replacing every file of the server' : ''}…`);
      try {
        await parts.halt(server);
        await parts.quotas.run(
          server,
          vol,
          limits,
          (budget) =>
            truncate
              ? parts.volumes.swap.replace(server, (staging) => extractArchive(staging, [], archive, name, caps, budget, { posixNames: true }))
              : extractArchive(vol, [], archive, name, caps, budget, { creditReplaced: true, posixNames: true }),
          truncate ? 'replace' : 'write',
        );
        successful = true;
        say('Backup restored.');
      } catch (error) {
        say(`Restore failed: ${reasonOf(error)}`);
        if (!(error instanceof DaemonError)) parts.log(`restoring backup ${backup} of ${server} failed`, error);
      } finally {
        parts.announce(server, { type: 'backup restore completed' });
      }
    });
  } catch (error) {
    parts.log(`backup ${backup} of ${server} could not be restored`, error);
  } finally {
    await archive.close();
  }
  return successful;
}
