import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Backup } from '../../contract/backups';
import type { Operation } from '../../components/ui/operations-tray';
import { formatBytes } from '../../lib/format';
import { serverQueries, type ServerRef } from '../servers/api';
import { BACKUP_POLL_MS, hasFailed, isRunning } from './api';

interface RestoreState {
  name: string | null;
  ended: boolean;
}

/**
 * The backups page's part of the operations tray, and what keeps it current. Running backups show
 * a spinner; one seen running here stays with its result until dismissed. A restore shows while
 * the server's status is `restoring_backup` (its detail is polled meanwhile, as the list answers
 * 409 then), and once it ends the whole server is read again (status, files, backups).
 *
 * Polling, not the console's websocket: that socket belongs to the console page (opened on its
 * mount, closed on its unmount), so listening here would mean a second socket to the node for the
 * same user. Every BACKUP_POLL_MS while something runs is cheap and works without the socket
 * permission.
 */
export function useBackupOperations(server: ServerRef, backups: readonly Backup[] | undefined, restoring: boolean) {
  const client = useQueryClient();
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [restore, setRestore] = useState<RestoreState | null>(null);

  useQuery({ ...serverQueries.detail(server.routeId), refetchInterval: restoring ? BACKUP_POLL_MS : false });

  // Backups seen running here stay in the tray with their result.
  useEffect(() => {
    setSeen((known) => {
      const added = (backups ?? []).filter((b) => isRunning(b) && !known.has(b.uuid));
      return added.length === 0 ? known : new Set([...known, ...added.map((b) => b.uuid)]);
    });
  }, [backups]);

  // The restore's start and end as seen from the server's status.
  // From false, so a page opened during a restore shows it too.
  const wasRestoring = useRef(false);
  useEffect(() => {
    if (restoring && !wasRestoring.current) setRestore((r) => ({ name: r && !r.ended ? r.name : null, ended: false }));
    if (!restoring && wasRestoring.current) {
      setRestore((r) => ({ name: r?.name ?? null, ended: true }));
      void client.invalidateQueries({ queryKey: serverQueries.root(server.routeId) });
    }
    wasRestoring.current = restoring;
  }, [restoring, client, server.routeId]);

  /** After the panel accepted a restore (its detail has been read again by then). */
  const startRestore = useCallback(
    (backup: Backup) => {
      const status = client.getQueryData(serverQueries.detail(server.routeId).queryKey)?.attributes.status;
      // A restore over before the status was read again has still happened: show it as ended.
      setRestore({ name: backup.name, ended: status !== 'restoring_backup' });
    },
    [client, server.routeId],
  );

  const dismiss = (id: string) => setDismissed((d) => new Set([...d, id]));
  const operations: Operation[] = [];
  if (restore && (!restore.ended || !dismissed.has('restore'))) {
    const title = restore.name ? `Restore of “${restore.name}”` : 'Restore of a backup';
    operations.push(
      restore.ended
        ? {
            id: 'restore',
            title,
            status: 'done',
            statusText: 'Finished',
            message: 'The console and the activity log say how it went.',
            action: { label: 'Dismiss', ariaLabel: `Dismiss ${title}`, onClick: () => dismiss('restore') },
          }
        : { id: 'restore', title, status: 'running', statusText: 'Restoring' },
    );
  }
  for (const b of backups ?? []) {
    if (!seen.has(b.uuid) || dismissed.has(b.uuid)) continue;
    const title = `Backup “${b.name}”`;
    const action = { label: 'Dismiss', ariaLabel: `Dismiss ${title}`, onClick: () => dismiss(b.uuid) };
    if (isRunning(b)) operations.push({ id: b.uuid, title, status: 'running', statusText: 'Running' });
    else if (hasFailed(b)) operations.push({ id: b.uuid, title, status: 'error', statusText: 'Failed', message: 'The backup failed.', action });
    else operations.push({ id: b.uuid, title, detail: formatBytes(b.bytes), status: 'done', statusText: 'Completed', action });
  }
  return { operations, startRestore };
}
