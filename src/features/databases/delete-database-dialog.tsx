import { useEffect, useState } from 'react';
import type { ServerDatabase } from '../../contract/databases';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TypedConfirmField } from '../../components/ui/typed-confirm-field';
import type { ServerRef } from '../servers/api';
import { useDeleteDatabase } from './api';

/** Drops a database and its user once the database's name has been typed. */
export function DeleteDatabaseDialog({ server, database, onClose }: { server: ServerRef; database: ServerDatabase | null; onClose: () => void }) {
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
      title="Delete database"
      description={`${name} and everything in it are deleted for good, and its user can no longer sign in.`}
      confirmLabel="Delete"
      danger
      confirmDisabled={typed !== name}
      mutation={remove}
      onConfirm={(signal) => (database ? remove.mutateAsync({ database, signal }) : undefined)}
    >
      <TypedConfirmField expected={name} value={typed} onChange={setTyped} />
    </ConfirmDialog>
  );
}
