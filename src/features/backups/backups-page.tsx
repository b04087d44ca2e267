import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Backup } from '../../contract/backups';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { OperationsTray } from '../../components/ui/operations-tray';
import { Pagination } from '../../components/ui/pagination';
import { PageSpinner } from '../../components/ui/spinner';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { formatCount } from '../../lib/format';
import { PermissionHint, useCan } from '../../lib/permissions';
import { usePageIntent } from '../../lib/use-page-intent';
import { useBlockingCondition, useServer, useServerRef } from '../servers/api';
import { backupQueries, hasFailed, isRunning, useDeleteBackup, useDownloadBackup, useToggleLock } from './api';
import { BackupRow, type BackupActions } from './backup-row';
import { createBlockedBy, useNowUntil } from './create-blocked';
import { CreateBackupDialog } from './create-backup-dialog';
import { RestoreBackupDialog } from './restore-backup-dialog';
import { useBackupEvents, useBackupOperations } from './use-backup-operations';

/** The server's backups: their state as it changes, making one, and download, restore, lock and delete. */
export function BackupsPage() {
  const server = useServer();
  const ref = useServerRef();
  const blocking = useBlockingCondition();
  const restoring = server.status === 'restoring_backup';
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { pollMs, progress } = useBackupEvents(ref);
  // The panel answers 409 to the list while a restore runs: the last one read stays on screen.
  const query = useQuery({
    ...backupQueries.list(ref, page),
    enabled: !restoring,
    refetchInterval: (q) => (q.state.data?.data.some((b) => isRunning(b.attributes)) ? pollMs : false),
  });
  const backups = useMemo(() => query.data?.data.map((b) => b.attributes), [query.data]);
  const tray = useBackupOperations(ref, backups, restoring, progress);
  const [canCreate, canDownload, canRestore, canDelete] = [
    useCan('backup.create'),
    useCan('backup.download'),
    useCan('backup.restore'),
    useCan('backup.delete'),
  ];
  const [creating, setCreating] = useState(false);
  const [restoreOf, setRestoreOf] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const download = useDownloadBackup(ref);
  const lock = useToggleLock(ref);
  const remove = useDeleteBackup(ref);

  const limit = server.feature_limits.backups;
  const used = query.data?.meta.backup_count ?? (backups ?? []).filter((b) => !hasFailed(b)).length;
  const throttle = query.data?.meta.backup_throttle;
  const now = useNowUntil(throttle?.available_at);
  const blocked = createBlockedBy(used, limit, blocking?.reason ?? null, throttle, now);
  // The command palette's "Create backup": the dialog the button opens, once the button would be enabled.
  usePageIntent('create-backup', canCreate && query.data !== undefined && blocked === null, () => setCreating(true));
  const actions: BackupActions = {
    download: (b) => download.mutate(b),
    restore: setRestoreOf,
    toggleLock: (b) => lock.mutate(b),
    remove: setDeleting,
  };

  return (
    <section aria-labelledby="backups-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="backups-heading" className="text-lg font-semibold text-white">
          Backups
        </h2>
        <div className="flex items-center gap-3">
          {query.data && limit !== 0 && (
            <span className="text-sm text-zinc-400">{limit === null ? formatCount(used, 'backup') : `${used} of ${limit} used`}</span>
          )}
          {canCreate && (
            <Button onClick={() => setCreating(true)} disabled={blocked !== null || !query.data} title={blocked ?? undefined}>
              Create backup
            </Button>
          )}
        </div>
      </div>
      {query.data && blocked && <p className="text-sm text-zinc-400">{blocked}</p>}
      {/* One line for every backup action the subuser lacks (create, and each row's download, restore, lock and delete). */}
      <PermissionHint permission={['backup.create', 'backup.download', 'backup.restore', 'backup.delete']} />

      <OperationsTray label="Backup operations" operations={tray.operations} />

      {restoring && !query.data ? (
        <EmptyState title="A backup is being restored">The list of backups shows again once the restore has finished.</EmptyState>
      ) : query.isPending ? (
        <PageSpinner />
      ) : query.isError && !query.data ? (
        <ErrorState error={query.error} />
      ) : !backups || backups.length === 0 ? (
        <EmptyState title="No backups yet">
          A backup is an archive of every file of this server, kept on its node, that you can download or restore the server from.{' '}
          {canCreate && limit !== 0 ? 'Use “Create backup” to make the first one.' : ''}
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Backups" className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {backups.map((b) => (
              <BackupRow
                key={b.uuid}
                backup={b}
                can={{ download: canDownload, restore: canRestore, delete: canDelete }}
                actions={actions}
                blocked={blocking ? `Unavailable while ${blocking.reason}.` : null}
              />
            ))}
          </ul>
          {query.data?.meta.pagination && (
            <Pagination label="Backup pages" meta={query.data.meta.pagination} onPage={(p) => setParams(p === 1 ? {} : { page: String(p) })} />
          )}
        </>
      )}

      {canCreate && <CreateBackupDialog server={ref} open={creating} onOpenChange={setCreating} onCreated={tray.track} />}
      {canRestore && <RestoreBackupDialog server={ref} backup={restoreOf} onClose={() => setRestoreOf(null)} onStarted={tray.startRestore} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Delete backup"
        description={deleting ? `“${deleting.name}” is deleted from the node. This cannot be undone.` : undefined}
        confirmLabel="Delete"
        danger
        mutation={remove}
        onConfirm={(signal) => (deleting ? remove.mutateAsync({ backup: deleting, signal }) : undefined)}
      />
    </section>
  );
}
