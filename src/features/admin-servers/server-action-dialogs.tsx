import type { ApplicationServer } from '../../contract/admin-servers';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useServerAction } from './api';
import { T, useT } from './messages';

interface ActionProps {
  server: ApplicationServer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

type Body =
  | 'adminServers.suspend.body'
  | 'adminServers.unsuspend.body'
  | 'adminServers.reinstall.body'
  | 'adminServers.delete.body'
  | 'adminServers.forceDelete.body';

/** A confirmation's text, the server's name set apart. */
const Said = ({ k, server }: { k: Body; server: ApplicationServer }) => (
  <T k={k} values={{ name: server.name }} components={{ 0: <span className="font-medium break-all text-zinc-100" /> }} />
);

/** Suspends a running server, or lifts the suspension: one dialog saying which. */
export function SuspendDialog({ server, open, onOpenChange }: ActionProps) {
  const t = useT();
  const suspended = server.status === 'suspended';
  const action = useServerAction(suspended ? 'unsuspend' : 'suspend');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={suspended ? t('adminServers.unsuspend.title') : t('adminServers.suspend.title')}
      description={<Said k={suspended ? 'adminServers.unsuspend.body' : 'adminServers.suspend.body'} server={server} />}
      confirmLabel={suspended ? t('adminServers.unsuspend') : t('adminServers.suspend')}
      danger={!suspended}
      mutation={action}
      onConfirm={(signal) => action.mutateAsync({ server, signal })}
    />
  );
}

export function ReinstallDialog({ server, open, onOpenChange }: ActionProps) {
  const t = useT();
  const action = useServerAction('reinstall');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminServers.reinstall.title')}
      description={<Said k="adminServers.reinstall.body" server={server} />}
      confirmLabel={t('adminServers.reinstall')}
      danger
      mutation={action}
      onConfirm={(signal) => action.mutateAsync({ server, signal })}
    />
  );
}

/**
 * Deleting asks the node to remove the server's files and its database hosts to drop its
 * databases, and stops at the first refusal; forcing passes over refusals (a node that is gone)
 * and deletes the panel's records anyway.
 */
export function DeleteServerDialog({ server, open, onOpenChange, force, onDeleted }: ActionProps & { force: boolean; onDeleted: () => void }) {
  const t = useT();
  const action = useServerAction(force ? 'forceDelete' : 'delete');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={force ? t('adminServers.forceDelete.title') : t('adminServers.delete.title')}
      description={<Said k={force ? 'adminServers.forceDelete.body' : 'adminServers.delete.body'} server={server} />}
      confirmLabel={force ? t('adminServers.forceDelete') : t('adminServers.delete')}
      danger
      mutation={action}
      onConfirm={async (signal) => {
        await action.mutateAsync({ server, signal });
        onDeleted();
      }}
    />
  );
}
