import { useEffect, useState } from 'react';
import type { ServerDatabase } from '../../contract/databases';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TypedConfirmField } from '../../components/ui/typed-confirm-field';
import type { ServerRef } from '../servers/api';
import { useDeleteDatabase } from './api';
import { useT } from './messages';

/** Drops a database and its user once the database's name has been typed. */
export function DeleteDatabaseDialog({ server, database, onClose }: { server: ServerRef; database: ServerDatabase | null; onClose: () => void }) {
  const t = useT();
  const remove = useDeleteDatabase(server);
  const [typed, setTyped] = useState('');
  const name = database?.name ?? '';

  useEffect(() => setTyped(''), [database]);

  return (
    <ConfirmDialog
      open={database !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('databases.delete')}
      description={t('databases.delete.description', { name })}
      confirmLabel={t('databases.delete.confirm')}
      danger
      confirmDisabled={typed !== name}
      mutation={remove}
      onConfirm={(signal) => (database ? remove.mutateAsync({ database, signal }) : undefined)}
    >
      <TypedConfirmField expected={name} value={typed} onChange={setTyped} />
    </ConfirmDialog>
  );
}
