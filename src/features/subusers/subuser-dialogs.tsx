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
  const create = useCreateSubuser(server);
  const form = useContractForm(subuserCreateSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add user"
      wide
      description="They get exactly the permissions you choose on this server. An address without an account gets one."
      submitLabel="Add user"
      form={form}
      defaultValues={defaultValues}
      mutation={create}
      errorFields={{ fields: ['email', 'permissions'] }}
      onSubmit={async (values, signal) => {
        const created = await create.mutateAsync({ ...values, signal });
        onAdded({ email: created.attributes.email });
      }}
    >
      <TextField label="E-mail" type="email" autoComplete="off" error={errors.email?.message} {...form.register('email')} />
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
        title="View permissions"
        wide
        description={
          <>
            <span className="break-all">{user?.email}</span>: you may see these permissions but not change them.
          </>
        }
        footer={
          <Button variant="secondary" onClick={onClose}>
            Close
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
      title="Edit permissions"
      wide
      description={
        <>
          <span className="break-all">{user?.email}</span>: the change applies at once, also to their open console.
        </>
      }
      confirmLabel="Save"
      confirmDisabled={!changed || value.size === 0}
      mutation={update}
      onConfirm={(signal) => (user ? update.mutateAsync({ user, permissions: [...value], signal }) : undefined)}
    >
      <PermissionEditor value={value} onChange={setValue} />
    </ConfirmDialog>
  );
}

export function DeleteSubuserDialog({ server, user, onClose }: { server: ServerRef; user: Subuser | null; onClose: () => void }) {
  const remove = useDeleteSubuser(server);
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Delete user"
      description={
        <>
          <span className="break-all">{user?.email}</span> is removed from this server and loses access at once, also in an open console. Their
          account stays.
        </>
      }
      confirmLabel="Delete"
      danger
      mutation={remove}
      onConfirm={(signal) => (user ? remove.mutateAsync({ user, signal }) : undefined)}
    />
  );
}
