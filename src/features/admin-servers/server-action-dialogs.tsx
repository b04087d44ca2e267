import type { ApplicationServer } from '../../contract/admin-servers';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useServerAction } from './api';

interface ActionProps {
  server: ApplicationServer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const Name = ({ server }: { server: ApplicationServer }) => <span className="font-medium break-all text-zinc-100">{server.name}</span>;

/** Suspends a running server, or lifts the suspension: one dialog saying which. */
export function SuspendDialog({ server, open, onOpenChange }: ActionProps) {
  const suspended = server.status === 'suspended';
  const action = useServerAction(suspended ? 'unsuspend' : 'suspend');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={suspended ? 'Unsuspend server' : 'Suspend server'}
      description={
        suspended ? (
          <>
            <Name server={server} /> can be started again, and its owner and subusers reach its console, files and settings again. It stays stopped
            until someone starts it.
          </>
        ) : (
          <>
            <Name server={server} /> is stopped, and its owner and subusers can no longer start it or reach its console, files, backups or settings
            until you unsuspend it. Nothing is deleted.
          </>
        )
      }
      confirmLabel={suspended ? 'Unsuspend' : 'Suspend'}
      danger={!suspended}
      mutation={action}
      onConfirm={(signal) => action.mutateAsync({ server, signal })}
    />
  );
}

export function ReinstallDialog({ server, open, onOpenChange }: ActionProps) {
  const action = useServerAction('reinstall');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reinstall server"
      description={
        <>
          <Name server={server} /> is stopped and its egg’s install script runs again on its files. No file is deleted first, but the script may
          overwrite the files it installs (the game’s own files, often its configuration). The server shows as installing until the script ends, and
          cannot be started meanwhile.
        </>
      }
      confirmLabel="Reinstall"
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
  const action = useServerAction(force ? 'forceDelete' : 'delete');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={force ? 'Force delete server' : 'Delete server'}
      description={
        force ? (
          <>
            <Name server={server} /> is removed from the panel even if its node or a database host cannot be reached or refuses: whatever they still
            hold (files, backups, databases) stays there for you to remove by hand. Use this only when a normal delete fails because the node is gone.
          </>
        ) : (
          <>
            <Name server={server} /> is stopped, and its files, backups and databases are deleted on its node and database hosts, then from the panel.
            If the node cannot be reached, nothing is deleted and you are told why.
          </>
        )
      }
      confirmLabel={force ? 'Force delete' : 'Delete'}
      danger
      mutation={action}
      onConfirm={async (signal) => {
        await action.mutateAsync({ server, signal });
        onDeleted();
      }}
    />
  );
}
