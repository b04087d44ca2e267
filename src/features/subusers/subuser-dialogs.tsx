import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { subuserCreateSchema, type Subuser } from '../../contract/subusers';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { useCreateSubuser, useDeleteSubuser, useUpdateSubuser } from './api';
import { PermissionEditor } from './permission-editor';
import { T, useT } from './messages';

/** The e-mail in a dialog's description, broken anywhere (a long address has no spaces). */
const EMAIL = { 0: <span className="break-all" /> };

const defaultValues = { email: '', permissions: [] as string[] };

/** Who was added, for the page to say so. */
export interface Added {
  email: string;
}

/** E-mail and permissions; a refusal about a field lands on it. */
export function AddSubuserDialog({
  server,
  open,
  onOpenChange,
  onAdded,
}: {
  server: ServerRef;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (added: Added) => void;
}) {
  const t = useT();
  const create = useCreateSubuser(server);
  const form = useContractForm(subuserCreateSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('subusers.add')}
      wide
      description={t('subusers.addDialog.description')}
      submitLabel={t('subusers.add')}
      form={form}
      defaultValues={defaultValues}
      mutation={create}
      errorFields={{ fields: ['email', 'permissions'] }}
      onSubmit={async (values, signal) => {
        const created = await create.mutateAsync({ ...values, signal });
        onAdded({ email: created.attributes.email });
      }}
    >
      <TextField label={t('subusers.addDialog.email')} type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
      <Controller
        control={form.control}
        name="permissions"
        render={({ field }) => <PermissionEditor value={new Set(field.value)} onChange={(next) => field.onChange([...next])} />}
      />
      {errors.permissions?.message && (
        <p role="alert" className="text-sm text-red-400">
          {errors.permissions.message}
        </p>
      )}
    </MutationDialog>
  );
}

/** The editor over a subuser's permissions: Save once something changed; read-only without `user.update`. */
export function EditSubuserDialog({
  server,
  user,
  canUpdate,
  onClose,
}: {
  server: ServerRef;
  user: Subuser | null;
  canUpdate: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const update = useUpdateSubuser(server);
  const initial = useMemo(() => new Set(user?.permissions.filter((p) => p !== 'websocket.connect') ?? []), [user]);
  const [value, setValue] = useState<ReadonlySet<string>>(initial);
  useEffect(() => setValue(initial), [initial]);
  const changed = value.size !== initial.size || [...value].some((p) => !initial.has(p));
  const close = (open: boolean) => {
    if (!open) onClose();
  };

  if (!canUpdate)
    return (
      <Dialog
        open={user !== null}
        onOpenChange={close}
        title={t('subusers.view.title')}
        wide
        description={<T k="subusers.view.description" values={{ email: user?.email ?? '' }} components={EMAIL} />}
        footer={
          <Button variant="secondary" onClick={onClose}>
            {t('subusers.view.close')}
          </Button>
        }
      >
        <PermissionEditor value={value} onChange={setValue} readOnly />
      </Dialog>
    );
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={close}
      title={t('subusers.edit.title')}
      wide
      description={<T k="subusers.edit.description" values={{ email: user?.email ?? '' }} components={EMAIL} />}
      confirmLabel={t('subusers.edit.save')}
      confirmDisabled={!changed || value.size === 0}
      mutation={update}
      onConfirm={(signal) => (user ? update.mutateAsync({ user, permissions: [...value], signal }) : undefined)}
    >
      <PermissionEditor value={value} onChange={setValue} />
    </ConfirmDialog>
  );
}

export function DeleteSubuserDialog({ server, user, onClose }: { server: ServerRef; user: Subuser | null; onClose: () => void }) {
  const t = useT();
  const remove = useDeleteSubuser(server);
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('subusers.delete.title')}
      description={<T k="subusers.delete.description" values={{ email: user?.email ?? '' }} components={EMAIL} />}
      confirmLabel={t('subusers.delete')}
      danger
      mutation={remove}
      onConfirm={(signal) => (user ? remove.mutateAsync({ user, signal }) : undefined)}
    />
  );
}
