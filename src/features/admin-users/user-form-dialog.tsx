import { userWriteSchema, type User, type UserWrite } from '../../contract/users';
import { Checkbox } from '../../components/ui/checkbox';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { usePanelSendsNoMail } from '../admin-settings/api';
import { useCreateUser, useUpdateUser } from './api';

const FIELDS = ['email', 'username', 'first_name', 'last_name', 'password', 'external_id', 'root_admin', 'language'] as const;
const EMPTY: UserWrite = { email: '', username: '', first_name: '', last_name: '', external_id: null, root_admin: false };

// An empty box means "none": no password (an invitation, or unchanged) and no external id.
const orUndefined = (v: unknown) => (v === '' ? undefined : v);
const orNull = (v: unknown) => (v === '' ? null : v);

/**
 * Creating a user (`user` null) or changing one, validated by the contract's `userWriteSchema` (the
 * server's own rules); a refusal about a field lands under it.
 */
export function UserFormDialog({
  user,
  open,
  onOpenChange,
  onCreated,
}: {
  user: User | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** `invited`: no password was given, so the new user is to get a link to set one (mailed, if the panel sends mail). */
  onCreated?: (user: User, invited: boolean) => void;
}) {
  const create = useCreateUser();
  const update = useUpdateUser();
  const mutation = user ? update : create;
  const noMail = usePanelSendsNoMail();
  const defaultValues: UserWrite = user
    ? {
        email: user.email,
        username: user.username,
        first_name: user.first_name,
        last_name: user.last_name,
        external_id: user.external_id,
        language: user.language,
        root_admin: user.root_admin,
      }
    : EMPTY;
  const form = useContractForm(userWriteSchema, defaultValues);
  const { errors } = form.formState;

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={user ? 'Edit user' : 'Create user'}
      description={user ? <span className="break-all">{user.email}</span> : 'A new account on this panel.'}
      submitLabel={user ? 'Save' : 'Create user'}
      form={form}
      defaultValues={defaultValues}
      mutation={mutation}
      errorFields={{ fields: FIELDS }}
      onSubmit={async (body, signal) => {
        if (user) return update.mutateAsync({ user, body, signal });
        const created = await create.mutateAsync({ body, signal });
        onCreated?.(created.attributes, !body.password);
      }}
    >
      <TextField label="E-mail" type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
      <TextField label="Username" autoComplete="off" error={errors.username?.message} {...form.register('username')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="First name" autoComplete="off" error={errors.first_name?.message} {...form.register('first_name')} />
        <TextField label="Last name" autoComplete="off" error={errors.last_name?.message} {...form.register('last_name')} />
      </div>
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={
          user
            ? 'Leave it empty to keep the current password.'
            : noMail
              ? 'Leave it empty to give them a link to set one: this panel sends no mail, so you pass the link on.'
              : 'Leave it empty and an invitation e-mail is sent, with a link to set one.'
        }
        error={errors.password?.message}
        {...form.register('password', { setValueAs: orUndefined })}
      />
      <TextField
        label="External ID"
        autoComplete="off"
        hint="Optional: the account's id in your billing system."
        error={errors.external_id?.message}
        {...form.register('external_id', { setValueAs: orNull })}
      />
      <label className="flex items-start gap-2 text-sm text-zinc-200">
        <Checkbox className="mt-0.5" {...form.register('root_admin')} />
        <span>
          Root admin
          <span className="block text-xs text-zinc-400">Sees every server and this admin area.</span>
        </span>
      </label>
      {errors.root_admin?.message && (
        <p role="alert" className="text-sm text-red-400">
          {errors.root_admin.message}
        </p>
      )}
    </MutationDialog>
  );
}
