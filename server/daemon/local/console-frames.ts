import type * as z from 'zod/mini';
import { SOCKET_EVENTS, type socketBackupCompletedSchema, type socketBackupProgressSchema } from '../../../src/contract';
import type { ConsoleEvent } from '../capabilities';

/* What the console socket says, in Wings' words: its token errors, its frames, and who may receive which. */

/** Wings' messages for a token that cannot be used (the reference SPA matches on some of them). */
export const JWT_ERRORS = {
  notPresent: 'jwt: no jwt present',
  noConnect: 'jwt: missing connect permission',
  uuidMismatch: 'jwt: server uuid mismatch',
  denylisted: 'jwt: created too far in past (denylist)',
  expired: 'jwt: exp claim is invalid',
} as const;

/** Wings' `HasPermission`: `*` grants every permission except the `admin.` ones, which must be named. */
export function tokenGrants(permissions: readonly string[], wanted: string): boolean {
  return permissions.includes(wanted) || (!wanted.startsWith('admin') && permissions.includes('*'));
}

/**
 * Event → the permission a token needs to receive it; the rest go to every connection. Wings gates
 * `backup completed` only; the end of a restore is a backup's news too, so it needs `backup.read` as well.
 */
export function receivePermission(event: string): string | null {
  if (event === SOCKET_EVENTS.installOutput) return 'admin.websocket.install';
  if (event.startsWith(SOCKET_EVENTS.backupCompleted) || event.startsWith(SOCKET_EVENTS.backupProgress)) return 'backup.read';
  if (event === SOCKET_EVENTS.backupRestoreCompleted) return 'backup.read';
  if (event === SOCKET_EVENTS.transferLogs) return 'admin.websocket.transfer';
  return null;
}

export function frameOf(event: ConsoleEvent): { event: string; args: string[] } {
  switch (event.type) {
    case 'status':
      return { event: SOCKET_EVENTS.status, args: [event.state] };
    case 'stats':
      return { event: SOCKET_EVENTS.stats, args: [JSON.stringify(event.stats)] };
    case 'backup completed': {
      // Wings' payload: the bare hex checksum beside its type (the SPA joins them as the panel stores it).
      const payload: z.infer<typeof socketBackupCompletedSchema> = {
        uuid: event.backup,
        is_successful: event.successful,
        checksum: event.checksum,
        checksum_type: 'sha1',
        file_size: event.bytes,
      };
      return { event: `${SOCKET_EVENTS.backupCompleted}:${event.backup}`, args: [JSON.stringify(payload)] };
    }
    case 'backup progress': {
      const payload: z.infer<typeof socketBackupProgressSchema> = { uuid: event.backup, progress: event.progress };
      return { event: `${SOCKET_EVENTS.backupProgress}:${event.backup}`, args: [JSON.stringify(payload)] };
    }
    case 'backup restore completed':
      return { event: SOCKET_EVENTS.backupRestoreCompleted, args: [''] };
    case 'transfer status':
      return { event: SOCKET_EVENTS.transferStatus, args: [event.status] };
    default:
      return { event: event.type, args: [event.line] };
  }
}
