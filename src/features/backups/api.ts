import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { backupEndpoints, type Backup } from '../../contract/backups';
import { fileEndpoints } from '../../contract/files';
import { ApiError, call } from '../../lib/http';
import { followLink } from '../../lib/follow-link';
import { serverQueries, type ServerRef } from '../servers/api';
import { t } from './messages';

/*
 * The backup endpoints. Keys sit under the server's key root (['server', routeId, 'backups', …]);
 * every change refreshes the backups once it settles; a restore changes the server's status.
 */

/** How often the list is asked again while a backup runs or a restore is under way, without the websocket. */
export const BACKUP_POLL_MS = 3000;
/** The same while the websocket brings the results. */
export const BACKUP_SLOW_POLL_MS = 15_000;

/** Where the volume's default ignore list lives, as Wings reads it. */
export const IGNORE_FILE = '/.pteroignore';

export const backupQueries = {
  all: (server: ServerRef) => [...serverQueries.root(server.routeId), 'backups'] as const,
  list: (server: ServerRef, page: number) =>
    queryOptions({
      queryKey: [...backupQueries.all(server), 'list', page] as const,
      queryFn: ({ signal }) => call(backupEndpoints.list, { signal, params: { server: server.uuid }, query: { page } }),
      placeholderData: keepPreviousData,
    }),
  /**
   * The volume's `.pteroignore`, or '' when it is missing or cannot be read (the dialog then
   * starts empty). The root is listed first, so a volume without one costs no 404 in the console.
   */
  ignoreFile: (server: ServerRef) =>
    queryOptions({
      queryKey: [...backupQueries.all(server), 'ignore-file'] as const,
      queryFn: async ({ signal }) => {
        const params = { server: server.uuid };
        try {
          const root = await call(fileEndpoints.list, { signal, params, query: { directory: '/' } });
          if (!root.data.some((f) => f.attributes.is_file && `/${f.attributes.name}` === IGNORE_FILE)) return '';
          return await call(fileEndpoints.contents, { signal, params, query: { file: IGNORE_FILE } });
        } catch (error) {
          if (error instanceof ApiError) return '';
          throw error;
        }
      },
      staleTime: 0,
      retry: false,
      meta: { quiet: true },
    }),
};

/** A backup still being written (no result yet). */
export const isRunning = (b: Backup) => b.completed_at === null;
/** A backup that ended without a usable archive. */
export const hasFailed = (b: Backup) => b.completed_at !== null && !b.is_successful;
/** A locked backup that completed: the panel refuses to delete it. */
export const isProtected = (b: Backup) => b.is_locked && b.is_successful && b.completed_at !== null;

function useRefreshBackups(server: ServerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: backupQueries.all(server) });
}

export interface CreateBackupInput {
  name: string;
  ignored: string;
  is_locked: boolean;
  signal?: AbortSignal;
}

/** `Retry-After` in seconds (the panel sends seconds; an HTTP date is read too); null when unreadable. */
export function retryAfterSeconds(header: string): number | null {
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : null;
}

/** "Try again in 7 minutes." for a wait in seconds (the throttle's Retry-After). */
export function retryHint(seconds: number): string {
  if (seconds < 60) return t('backups.retry.seconds', { count: seconds });
  return t('backups.retry.minutes', { count: Math.ceil(seconds / 60) });
}

/** A throttled create says when it may be tried again, in the message the dialog shows. */
function withRetryHint(error: unknown): never {
  const wait = error instanceof ApiError && error.status === 429 && error.retryAfter !== null ? retryAfterSeconds(error.retryAfter) : null;
  if (error instanceof ApiError && wait !== null) {
    const [first, ...rest] = error.errors;
    const detail = `${first?.detail ?? t('backups.retry.tooMany')} ${retryHint(wait)}`;
    throw new ApiError(429, [{ code: first?.code ?? 'TooManyRequestsHttpException', status: '429', detail }, ...rest], error.retryAfter);
  }
  throw error;
}

export function useCreateBackup(server: ServerRef) {
  const onSettled = useRefreshBackups(server);
  return useMutation({
    mutationFn: ({ signal, name, ignored, is_locked }: CreateBackupInput) =>
      call(backupEndpoints.create, { signal, params: { server: server.uuid }, body: { name: name || null, ignored, is_locked } }).catch(
        withRetryHint,
      ),
    onSettled,
  });
}

/** Lock or unlock (the endpoint toggles). */
export function useToggleLock(server: ServerRef) {
  const onSettled = useRefreshBackups(server);
  return useMutation({
    mutationFn: (backup: Backup) => call(backupEndpoints.lock, { params: { server: server.uuid, backup: backup.uuid } }),
    meta: { toastErrors: true },
    onSettled,
  });
}

export function useDeleteBackup(server: ServerRef) {
  const onSettled = useRefreshBackups(server);
  return useMutation({
    mutationFn: ({ backup, signal }: { backup: Backup; signal?: AbortSignal }) =>
      call(backupEndpoints.delete, { signal, params: { server: server.uuid, backup: backup.uuid } }),
    onSettled,
  });
}

/**
 * Starts a restore: the server becomes `restoring_backup`, so its detail is read again (only it:
 * the panel answers 409 to the rest until the restore ends, when the page reads everything again).
 */
export function useRestoreBackup(server: ServerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ backup, truncate, signal }: { backup: Backup; truncate: boolean; signal?: AbortSignal }) =>
      call(backupEndpoints.restore, { signal, params: { server: server.uuid, backup: backup.uuid }, body: { truncate } }),
    onSettled: () => client.invalidateQueries({ queryKey: serverQueries.detail(server.routeId).queryKey }),
  });
}

/** Follows the node's one-time link to the archive, as the file manager's downloads do. */
export function useDownloadBackup(server: ServerRef) {
  return useMutation({
    mutationFn: async (backup: Backup) => {
      const signed = await call(backupEndpoints.download, { params: { server: server.uuid, backup: backup.uuid } });
      followLink(signed.attributes.url);
    },
    meta: { toastErrors: true },
  });
}
