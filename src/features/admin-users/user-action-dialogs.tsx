import type { User } from '../../contract/users';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useDeleteUser, useDisableUserTwoFactor, usePasswordLink } from './api';
import { T, useT } from './messages';

/** What a password link came to: mailed to the user, or the link for the admin to pass on. */
export type PasswordLinkResult = { mailed: true } | { mailed: false; link: string | null };

// An address can be long and unbroken: it wraps anywhere.
const EMAIL = { 0: <span className="break-all" /> };

interface ActionProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function PasswordLinkDialog({ user, open, onOpenChange, onDone }: ActionProps & { onDone: (result: PasswordLinkResult) => void }) {
  const reset = usePasswordLink();
  const t = useT();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminUsers.linkDialog.title')}
      description={<T k="adminUsers.linkDialog.text" values={{ email: user.email }} components={EMAIL} />}
      confirmLabel={t('adminUsers.linkDialog.confirm')}
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
  const t = useT();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminUsers.twoFactorDialog.title')}
      description={<T k="adminUsers.twoFactorDialog.text" values={{ email: user.email }} components={EMAIL} />}
      confirmLabel={t('adminUsers.twoFactorDialog.confirm')}
      danger
      mutation={disable}
      onConfirm={(signal) => disable.mutateAsync({ user, signal })}
    />
  );
}

/** Deleting is refused while the user owns servers: the refusal, naming them, shows in the dialog. */
export function DeleteUserDialog({ user, open, onOpenChange, onDeleted }: ActionProps & { onDeleted: () => void }) {
  const remove = useDeleteUser();
  const t = useT();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminUsers.deleteDialog.title')}
      description={<T k="adminUsers.deleteDialog.text" values={{ email: user.email }} components={EMAIL} />}
      confirmLabel={t('adminUsers.delete')}
      danger
      mutation={remove}
      onConfirm={async (signal) => {
        await remove.mutateAsync({ user, signal });
        onDeleted();
      }}
    />
  );
}
