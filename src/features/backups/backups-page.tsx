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
import { useLocale } from '../../lib/i18n/catalog';
import { PermissionHint, useCan } from '../../lib/permissions';
import { usePageIntent } from '../../lib/use-page-intent';
import { useBlockingCondition, useServer, useServerRef } from '../servers/api';
import { backupQueries, hasFailed, isRunning, useDeleteBackup, useDownloadBackup, useToggleLock } from './api';
import { BackupRow, type BackupActions } from './backup-row';
import { createBlockedBy, useNowUntil } from './create-blocked';
import { CreateBackupDialog } from './create-backup-dialog';
import { RestoreBackupDialog } from './restore-backup-dialog';
import { useBackupEvents, useBackupOperations } from './use-backup-operations';
import { useT } from './messages';

/** The server's backups: their state as it changes, making one, and download, restore, lock and delete. */
export function BackupsPage() {
  const t = useT();
  const locale = useLocale();
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
  const blocked = createBlockedBy(used, limit, blocking?.reason ?? null, throttle, now, locale);
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
          {t('backups.title')}
        </h2>
        <div className="flex items-center gap-3">
          {query.data && limit !== 0 && (
            <span className="text-sm text-zinc-400">{limit === null ? t('backups.count', { count: used }) : t('backups.used', { used, limit })}</span>
          )}
          {canCreate && (
            <Button onClick={() => setCreating(true)} disabled={blocked !== null || !query.data} title={blocked ?? undefined}>
              {t('backups.create')}
            </Button>
          )}
        </div>
      </div>
      {query.data && blocked && <p className="text-sm text-zinc-400">{blocked}</p>}
      {/* One line for every backup action the subuser lacks (create, and each row's download, restore, lock and delete). */}
      <PermissionHint permission={['backup.create', 'backup.download', 'backup.restore', 'backup.delete']} />

      <OperationsTray label={t('backups.operations')} operations={tray.operations} />

      {restoring && !query.data ? (
        <EmptyState title={t('backups.restoring.title')}>{t('backups.restoring.body')}</EmptyState>
      ) : query.isPending ? (
        <PageSpinner />
      ) : query.isError && !query.data ? (
        <ErrorState error={query.error} />
      ) : !backups || backups.length === 0 ? (
        <EmptyState title={t('backups.empty.title')}>
          {t('backups.empty.body')} {canCreate && limit !== 0 ? t('backups.empty.create') : ''}
        </EmptyState>
      ) : (
        <>
          <ul aria-label={t('backups.title')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {backups.map((b) => (
              <BackupRow
                key={b.uuid}
                backup={b}
                can={{ download: canDownload, restore: canRestore, delete: canDelete }}
                actions={actions}
                blocked={blocking ? t('backups.blocked', { reason: blocking.reason }) : null}
              />
            ))}
          </ul>
          {query.data?.meta.pagination && (
            <Pagination label={t('backups.pages')} meta={query.data.meta.pagination} onPage={(p) => setParams(p === 1 ? {} : { page: String(p) })} />
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
        title={t('backups.delete.title')}
        description={deleting ? t('backups.delete.description', { name: deleting.name }) : undefined}
        confirmLabel={t('backups.delete')}
        danger
        mutation={remove}
        onConfirm={(signal) => (deleting ? remove.mutateAsync({ backup: deleting, signal }) : undefined)}
      />
    </section>
  );
}
