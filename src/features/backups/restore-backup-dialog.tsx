import { useEffect, useId, useState } from 'react';
import type { Backup } from '../../contract/backups';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TypedConfirmField } from '../../components/ui/typed-confirm-field';
import type { ServerRef } from '../servers/api';
import { useRestoreBackup } from './api';
import { useT } from './messages';

/** Restores a backup once its name has been typed; "Delete all files first" wipes the volume before. */
export function RestoreBackupDialog({
  server,
  backup,
  onClose,
  onStarted,
}: {
  server: ServerRef;
  backup: Backup | null;
  onClose: () => void;
  onStarted: (backup: Backup) => void;
}) {
  const t = useT();
  const restore = useRestoreBackup(server);
  const [truncate, setTruncate] = useState(false);
  const [typed, setTyped] = useState('');
  const truncateId = useId();
  const name = backup?.name ?? '';

  // Every opening starts unticked and empty.
  useEffect(() => {
    setTruncate(false);
    setTyped('');
  }, [backup]);

  return (
    <ConfirmDialog
      open={backup !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('backups.restoreDialog.title')}
      // What a restore does, said before it is started.
      description={t(truncate ? 'backups.restoreDialog.truncated' : 'backups.restoreDialog.overwrite', { name })}
      confirmLabel={t('backups.restore')}
      danger
      confirmDisabled={typed !== name}
      mutation={restore}
      onConfirm={async (signal) => {
        if (!backup) return;
        await restore.mutateAsync({ backup, truncate, signal });
        onStarted(backup);
      }}
    >
      <div className="flex flex-col gap-4">
        <div className="flex items-start gap-2.5">
          <Checkbox id={truncateId} className="mt-0.5" checked={truncate} onChange={(e) => setTruncate(e.target.checked)} />
          <label htmlFor={truncateId} className="text-sm text-zinc-200">
            {t('backups.restoreDialog.truncate')}
            <span className="block text-xs text-zinc-400">{t('backups.restoreDialog.truncateHint')}</span>
          </label>
        </div>
        <TypedConfirmField expected={name} value={typed} onChange={setTyped} />
      </div>
    </ConfirmDialog>
  );
}
