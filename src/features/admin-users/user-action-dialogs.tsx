import type { User } from '../../contract/users';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useDeleteUser, useDisableUserTwoFactor, usePasswordLink } from './api';

/** What a password link came to: mailed to the user, or the link for the admin to pass on. */
export type PasswordLinkResult = { mailed: true } | { mailed: false; link: string | null };

interface ActionProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function PasswordLinkDialog({ user, open, onOpenChange, onDone }: ActionProps & { onDone: (result: PasswordLinkResult) => void }) {
  const reset = usePasswordLink();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Send a password link"
      description={
        <>
          <span className="break-all">{user.email}</span> gets a link to set a new password; their current one keeps working until then. When this
          panel sends no mail you get the link to pass on.
        </>
      }
      confirmLabel="Make the link"
      mutation={reset}
      onConfirm={async (signal) => {
        const answer = await reset.mutateAsync({ user, signal });
        onDone(answer.mailed ? { mailed: true } : { mailed: false, link: answer.link ?? null });
      }}
    />
  );
}

export function DisableTwoFactorDialog({ user, open, onOpenChange }: ActionProps) {
  const disable = useDisableUserTwoFactor();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Turn off two-factor sign-in"
      description={
        <>
          <span className="break-all">{user.email}</span> signs in with the password alone until they set two-factor up again. Do this only for a user
          locked out of it whom you are sure of.
        </>
      }
      confirmLabel="Turn off"
      danger
      mutation={disable}
      onConfirm={(signal) => disable.mutateAsync({ user, signal })}
    />
  );
}

/** Deleting is refused while the user owns servers: the refusal, naming them, shows in the dialog. */
export function DeleteUserDialog({ user, open, onOpenChange, onDeleted }: ActionProps & { onDeleted: () => void }) {
  const remove = useDeleteUser();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete user"
      description={
        <>
          The account <span className="break-all">{user.email}</span> is deleted with its keys and sessions, and removed from the servers it was a
          subuser of. A user who owns servers cannot be deleted.
        </>
      }
      confirmLabel="Delete"
      danger
      mutation={remove}
      onConfirm={async (signal) => {
        await remove.mutateAsync({ user, signal });
        onDeleted();
      }}
    />
  );
}
