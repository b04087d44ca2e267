import { randomUUID } from 'node:crypto';
import type { Backup as BackupResource } from '../../src/contract';
import type { BackupCapability, NodeDaemon } from '../daemon/capabilities';
import { DaemonError } from '../daemon/types';
import { writeTransaction, type Db } from '../db';
import { activity, backups, nodes, servers } from '../db/repos';
import type { Backup } from '../db/repos/backups';
import type { ServerRow } from '../db/schema';
import { badRequest, HttpError, notFound, tooManyRequests } from '../http/errors';
import { isoOffset } from '../lib/time';
import { logActivities, type ActivityInput } from './activity';

/*
 * Backups, the reference panel's rules: a limit per server (0 disables them), a throttle on how
 * many start in a window, a lock that keeps a finished backup from deletion, and a restore that
 * holds the server in `restoring_backup` until its node reports the end. The archive itself is the
 * node's (`daemon.backups`); the panel keeps the row and the audit trail.
 */

export interface BackupThrottle {
  /** Backups that may start within `periodSeconds`. */
  limit: number;
  /** 0 disables the throttle. */
  periodSeconds: number;
}

export function backupResource(backup: Backup): { object: 'backup'; attributes: BackupResource } {
  return {
    object: 'backup',
    attributes: {
      uuid: backup.uuid,
      is_successful: backup.is_successful === 1,
      is_locked: backup.is_locked === 1,
      name: backup.name,
      ignored_files: backup.ignored_files,
      checksum: backup.checksum,
      bytes: backup.bytes,
      created_at: isoOffset(backup.created_at),
      completed_at: backup.completed_at === null ? null : isoOffset(backup.completed_at),
    },
  };
}

/** The backups of a server's node; a node without them refuses as unreachable would. */
export function nodeBackups(daemon: NodeDaemon): BackupCapability {
  if (daemon.backups) return daemon.backups;
  throw new DaemonError('unavailable', 'The node of this server does not keep backups.');
}

/** A backup of this server, or the 404 of a missing one (another server's backup included). */
export async function backupOf(db: Db, server: ServerRow, uuid: string): Promise<Backup> {
  const backup = await backups.findOfServer(db, server.id, uuid);
  if (!backup) throw notFound();
  return backup;
}

/** The reference panel's default name (UTC here, the panel's only time zone). */
export function defaultBackupName(now: Date): string {
  const iso = now.toISOString();
  return `Backup at ${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** `ignored` as the reference panel stores it: one pattern per line, blank lines dropped. */
export function ignoredPatterns(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * When the throttle lets this server start its next backup, or null when it may now. As the
 * reference panel: once the newest of the backups in the window leaves it.
 */
export async function throttledUntil(db: Db, serverId: number, throttle: BackupThrottle, now: Date): Promise<Date | null> {
  if (throttle.periodSeconds <= 0) return null;
  const periodMs = throttle.periodSeconds * 1000;
  const recent = await backups.startedSince(db, serverId, new Date(now.getTime() - periodMs));
  const newest = recent.at(-1);
  return newest && recent.length >= throttle.limit ? new Date(newest.getTime() + periodMs) : null;
}

/**
 * Records a new running backup after the throttle (429) and the limit (400), in one write
 * transaction so parallel requests never pass either together. The node is asked afterwards.
 */
export async function recordBackup(
  db: Db,
  server: ServerRow,
  input: { name: string; ignored: string[]; locked: boolean },
  throttle: BackupThrottle,
  now: Date,
): Promise<Backup> {
  return writeTransaction(db, async (trx) => {
    const availableAt = await throttledUntil(trx, server.id, throttle, now);
    if (availableAt) {
      const detail = `Only ${throttle.limit} backups may be generated within a ${throttle.periodSeconds} second span of time.`;
      throw tooManyRequests((availableAt.getTime() - now.getTime()) / 1000, detail, 'TooManyRequestsHttpException');
    }
    const limit = (await servers.findById(trx, server.id))?.backup_limit ?? 0;
    if (limit <= 0 || (await backups.countNotFailed(trx, server.id)) >= limit) {
      throw badRequest(`Cannot create a new backup, this server has reached its limit of ${limit} backups.`, 'TooManyBackupsException');
    }
    return backups.insert(trx, {
      uuid: randomUUID(),
      server_id: server.id,
      name: input.name,
      ignored_files: input.ignored,
      is_locked: input.locked,
      now,
    });
  });
}

/**
 * Puts the server into `restoring_backup` for this backup: refused (400) while the backup runs or
 * when the server is in any other state, checked and set in one statement so two restores never
 * both begin.
 */
export async function beginRestore(db: Db, server: ServerRow, backup: Backup, now: Date): Promise<void> {
  if (backup.is_successful === 0 && backup.completed_at === null) {
    throw badRequest('This backup cannot be restored at this time: not completed or failed.');
  }
  if (!(await servers.setStatusFrom(db, server.id, null, 'restoring_backup', now))) {
    throw badRequest('This server is not currently in a state that allows for a backup to be restored.');
  }
}

/** A locked backup that completed successfully is kept; a failed or running one may go. */
export function assertDeletable(backup: Backup): void {
  if (backup.is_locked === 1 && backup.is_successful === 1 && backup.completed_at !== null) {
    throw new HttpError(400, 'BackupLockedException', 'Cannot delete a backup that is marked as locked.');
  }
}

/** A downloadable backup: one that completed successfully. */
export function assertDownloadable(backup: Backup): void {
  if (backup.is_successful !== 1) throw badRequest('This backup cannot be downloaded: it has not completed successfully.');
}

/** An audit entry the node's work writes: no actor, the server and the backup as subjects. */
export function backupEvent(
  server: Pick<ServerRow, 'id'>,
  backup: Pick<Backup, 'id'>,
  event: ActivityInput['event'],
  properties: Record<string, unknown>,
  now: Date,
): ActivityInput {
  return {
    event,
    ip: '',
    actorId: null,
    properties,
    subjects: [
      { type: 'server', id: server.id },
      { type: 'backup', id: backup.id },
    ],
    timestamp: now,
  };
}

/** The backup a server's restore was for: the one its latest `server:backup.restore` entry names. */
async function restoredBackup(db: Db, serverId: number): Promise<Backup | undefined> {
  const id = await activity.latestSubjectOf(db, serverId, 'server:backup.restore', 'backup');
  return id === undefined ? undefined : backups.findById(db, id);
}

/**
 * Marks failed the backups still running on a node that restarted (the panel's own node at the
 * panel's start, a remote one at its `servers/reset`): nothing it ran survived. Their entries, to log.
 */
export async function failedBackupsOfNode(db: Db, nodeId: number, now: Date): Promise<ActivityInput[]> {
  const entries: ActivityInput[] = [];
  for (const backup of await backups.runningOnNode(db, nodeId)) {
    const failed = await backups.finish(db, backup.server_id, backup.uuid, { successful: false, checksum: null, bytes: 0, now });
    if (failed) entries.push(backupEvent({ id: failed.server_id }, failed, 'server:backup.fail', { name: failed.name }, now));
  }
  return entries;
}

/**
 * At the panel's start nothing runs yet on its own node: every backup of it still marked running
 * was cut off (a crash, a restart) and has failed, and every server left `restoring_backup` had
 * its restore cut off.
 * Both are recorded as failures, so no backup stays "running" and no server stays held.
 */
export async function failInterruptedBackupWork(db: Db, now: Date): Promise<{ backups: number; restores: number }> {
  // A remote node's backups are that node's to report (or to end at its own restart: node-reset.ts).
  const local = await nodes.local(db);
  const entries: ActivityInput[] = local ? await failedBackupsOfNode(db, local.id, now) : [];
  const failedBackups = entries.length;
  const restoring = await servers.localWithStatus(db, 'restoring_backup');
  for (const server of restoring) {
    await servers.setStatus(db, server.id, null, now);
    const backup = await restoredBackup(db, server.id);
    entries.push(
      backup
        ? backupEvent(server, backup, 'server:backup.restore-failed', { name: backup.name }, now)
        : {
            event: 'server:backup.restore-failed',
            ip: '',
            actorId: null,
            properties: {},
            subjects: [{ type: 'server', id: server.id }],
            timestamp: now,
          },
    );
  }
  await logActivities(db, entries);
  return { backups: failedBackups, restores: restoring.length };
}
