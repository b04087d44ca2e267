import { useId } from 'react';
import type { Backup } from '../../contract/backups';
import { Badge } from '../../components/ui/badge';
import { CopyButton } from '../../components/ui/copy-button';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '../../components/ui/dropdown-menu';
import { formatBytes, formatDateTime, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { hasFailed, isProtected, isRunning } from './api';
import { useT } from './messages';

type T = ReturnType<typeof useT>;

/** What the user may do to backups (their permissions) and, when something blocks the server, why not. */
export interface BackupPermissions {
  download: boolean;
  restore: boolean;
  delete: boolean;
}

export interface BackupActions {
  download: (b: Backup) => void;
  restore: (b: Backup) => void;
  toggleLock: (b: Backup) => void;
  remove: (b: Backup) => void;
}

/** Why the archive cannot be used yet (download, restore), or null. */
function archiveUnusable(t: T, b: Backup): string | null {
  if (isRunning(b)) return t('backups.row.stillRunning');
  if (hasFailed(b)) return t('backups.row.noArchive');
  return null;
}

/** One backup: its name and state, size, checksum, when it was made, and its menu. */
export function BackupRow({
  backup: b,
  can,
  actions,
  blocked,
}: {
  backup: Backup;
  can: BackupPermissions;
  actions: BackupActions;
  blocked: string | null;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <li aria-label={b.name} className="flex items-start justify-between gap-3 px-4 py-3">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium [overflow-wrap:anywhere] text-zinc-100">{b.name}</span>
          {/* A state, as Failed is: its progress is the operations tray's, the page's one progress element. */}
          {isRunning(b) && <Badge tone="info">{t('backups.state.running')}</Badge>}
          {hasFailed(b) && <Badge tone="danger">{t('backups.state.failed')}</Badge>}
          {b.is_locked && (
            <Badge tone="warning">
              <svg viewBox="0 0 20 20" fill="currentColor" className="mr-1 size-3" aria-hidden="true">
                <path d="M10 2a4 4 0 0 0-4 4v2H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1h-1V6a4 4 0 0 0-4-4Zm-2 6V6a2 2 0 1 1 4 0v2H8Z" />
              </svg>
              {t('backups.state.locked')}
            </Badge>
          )}
        </div>
        <dl className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-zinc-400">
          <div className="flex gap-1">
            <dt>{t('backups.row.created')}</dt>
            <dd>
              <time dateTime={b.created_at} title={formatDateTime(b.created_at, locale)}>
                {formatRelativeTime(b.created_at, new Date(), locale)}
              </time>
            </dd>
          </div>
          {b.is_successful && (
            <div className="flex gap-1">
              <dt>{t('backups.row.size')}</dt>
              <dd className="tabular-nums">{formatBytes(b.bytes, locale)}</dd>
            </div>
          )}
          {b.checksum && (
            <div className="flex max-w-full min-w-0 items-center gap-1">
              <dt>{t('backups.row.checksum')}</dt>
              <dd className="flex min-w-0 items-center gap-1">
                <code className="truncate font-mono" title={b.checksum}>
                  {b.checksum}
                </code>
                <CopyButton value={b.checksum} label={t('backups.row.copyChecksum')} className="shrink-0 py-0.5 whitespace-nowrap" />
              </dd>
            </div>
          )}
        </dl>
      </div>
      <BackupMenu backup={b} can={can} actions={actions} blocked={blocked} />
    </li>
  );
}

/** The ⋯ menu: only what the user's permissions allow (none: no button); unusable items say why. */
function BackupMenu({
  backup: b,
  can,
  actions,
  blocked,
}: {
  backup: Backup;
  can: BackupPermissions;
  actions: BackupActions;
  blocked: string | null;
}) {
  const t = useT();
  if (!can.download && !can.restore && !can.delete) return null;
  const unusable = archiveUnusable(t, b);
  const restoreOff = unusable ?? blocked;
  const deleteOff = isProtected(b) ? t('backups.row.deleteLocked') : blocked;
  return (
    <DropdownMenu
      trigger={
        <button
          type="button"
          aria-label={t('backups.row.actions', { name: b.name })}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-md text-zinc-400 hover:bg-zinc-800 hover:text-white data-[state=open]:bg-zinc-800"
        >
          <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
            <circle cx="5" cy="12" r="1.8" />
            <circle cx="12" cy="12" r="1.8" />
            <circle cx="19" cy="12" r="1.8" />
          </svg>
        </button>
      }
    >
      {can.download && <Item label={t('backups.download')} reason={unusable} onSelect={() => actions.download(b)} />}
      {can.restore && <Item label={t('backups.restore')} reason={restoreOff} onSelect={() => actions.restore(b)} />}
      {can.delete && <Item label={t(b.is_locked ? 'backups.unlock' : 'backups.lock')} reason={blocked} onSelect={() => actions.toggleLock(b)} />}
      {can.delete && (
        <>
          <DropdownMenuSeparator />
          <Item label={t('backups.delete')} reason={deleteOff} danger onSelect={() => actions.remove(b)} />
        </>
      )}
    </DropdownMenu>
  );
}

/** A menu item that, when it cannot be used, stays in the menu disabled with the reason under it. */
function Item({ label, reason, danger, onSelect }: { label: string; reason: string | null; danger?: boolean; onSelect: () => void }) {
  const reasonId = useId();
  return (
    <DropdownMenuItem
      disabled={reason !== null}
      danger={danger}
      onSelect={onSelect}
      aria-label={label}
      aria-describedby={reason ? reasonId : undefined}
      title={reason ?? undefined}
    >
      <span className="flex flex-col">
        <span>{label}</span>
        {reason && (
          <span id={reasonId} className="max-w-56 text-xs text-zinc-400">
            {reason}
          </span>
        )}
      </span>
    </DropdownMenuItem>
  );
}
