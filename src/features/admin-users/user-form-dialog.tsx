import { userWriteSchema, type User, type UserWrite } from '../../contract/users';
import { Checkbox } from '../../components/ui/checkbox';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { usePanelSendsNoMail } from '../admin-settings/api';
import { useCreateUser, useUpdateUser } from './api';
import { useT } from './messages';

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
  const t = useT();
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
      title={t(user ? 'adminUsers.edit' : 'adminUsers.create')}
      description={user ? <span className="break-all">{user.email}</span> : t('adminUsers.form.new')}
      submitLabel={t(user ? 'adminUsers.form.save' : 'adminUsers.create')}
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
      <TextField label={t('adminUsers.email')} type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
      <TextField label={t('adminUsers.form.username')} autoComplete="off" error={errors.username?.message} {...form.register('username')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label={t('adminUsers.form.firstName')} autoComplete="off" error={errors.first_name?.message} {...form.register('first_name')} />
        <TextField label={t('adminUsers.form.lastName')} autoComplete="off" error={errors.last_name?.message} {...form.register('last_name')} />
      </div>
      <TextField
        label={t('adminUsers.form.password')}
        type="password"
        autoComplete="new-password"
        hint={user ? t('adminUsers.form.passwordKeep') : noMail ? t('adminUsers.form.passwordLink') : t('adminUsers.form.passwordInvite')}
        error={errors.password?.message}
        {...form.register('password', { setValueAs: orUndefined })}
      />
      <TextField
        label={t('adminUsers.externalId')}
        autoComplete="off"
        hint={t('adminUsers.form.externalIdHint')}
        error={errors.external_id?.message}
        {...form.register('external_id', { setValueAs: orNull })}
      />
      <label className="flex items-start gap-2 text-sm text-zinc-200">
        <Checkbox className="mt-0.5" {...form.register('root_admin')} />
        <span>
          {t('adminUsers.rootAdmin')}
          <span className="block text-xs text-zinc-400">{t('adminUsers.form.rootAdminHint')}</span>
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
