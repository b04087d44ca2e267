import { applicationServerDetailsSchema } from '../../contract/admin-server-writes';
import { type ApplicationServer } from '../../contract/admin-servers';
import type * as z from 'zod/mini';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import { useChangeDetails } from './api';
import { OwnerField } from './owner-field';
import { useT } from './messages';
import { ownerOf } from './server-relations';

const FIELDS = ['name', 'user', 'external_id', 'description'] as const;
const orNull = (v: unknown) => (v === '' ? null : v);

/** Name, owner, external id and description (the owner's change moves the server to their list, and takes it from the old owner's). */
export function ServerDetailsDialog({
  server,
  open,
  onOpenChange,
}: {
  server: ApplicationServer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useT();
  const change = useChangeDetails();
  const owner = ownerOf(server);
  const defaultValues: z.input<typeof applicationServerDetailsSchema> = {
    name: server.name,
    user: String(server.user),
    external_id: server.external_id,
    description: server.description,
  };
  const form = useContractForm(applicationServerDetailsSchema, defaultValues);
  const { errors } = form.formState;
  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('adminServers.details.edit')}
      description={<span className="break-all">{server.name}</span>}
      submitLabel={t('adminServers.save')}
      form={form}
      defaultValues={defaultValues}
      mutation={change}
      errorFields={{ fields: FIELDS }}
      onSubmit={(body, signal) => change.mutateAsync({ server, body, signal })}
    >
      <TextField label={t('adminServers.field.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <OwnerField
        register={form.register('user')}
        current={{
          id: server.user,
          label: owner.email ? `${owner.email}${owner.username ? ` (${owner.username})` : ''}` : t('adminServers.user', { id: server.user }),
        }}
        error={errors.user?.message}
      />
      <TextField
        label={t('adminServers.field.externalId')}
        autoComplete="off"
        hint={t('adminServers.details.externalIdHint')}
        error={errors.external_id?.message}
        {...form.register('external_id', { setValueAs: orNull })}
      />
      <TextAreaField
        label={t('adminServers.field.description')}
        rows={3}
        error={errors.description?.message}
        {...form.register('description', { setValueAs: orNull })}
      />
    </MutationDialog>
  );
}
