import { createDatabaseSchema, DATABASE_NAME_RULE, DATABASE_REMOTE_RULE, type ServerDatabase } from '../../contract/databases';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { useCreateDatabase } from './api';
import { useT } from './messages';

const defaultValues = { database: '', remote: '%' };

/** Name and connections-from, with the panel's rules said up front; a refusal lands on its field. */
export function CreateDatabaseDialog({
  server,
  open,
  onOpenChange,
  onCreated,
  onError,
}: {
  server: ServerRef;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (database: ServerDatabase) => void;
  onError: (error: unknown) => void;
}) {
  const t = useT();
  const create = useCreateDatabase(server);
  const form = useContractForm(createDatabaseSchema, defaultValues);
  const { errors } = form.formState;

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('databases.new')}
      description={t('databases.create.description')}
      submitLabel={t('databases.create.submit')}
      form={form}
      defaultValues={defaultValues}
      mutation={create}
      errorFields={{ fields: ['database', 'remote'] }}
      onSubmit={async (values, signal) => {
        try {
          onCreated((await create.mutateAsync({ ...values, signal })).attributes);
        } catch (error) {
          onError(error);
          throw error;
        }
      }}
    >
      <TextField
        label={t('databases.create.name')}
        autoComplete="off"
        spellCheck={false}
        hint={t('databases.create.nameHint', { rule: DATABASE_NAME_RULE })}
        error={errors.database?.message}
        {...form.register('database')}
      />
      <TextField
        label={t('databases.field.remote')}
        autoComplete="off"
        spellCheck={false}
        hint={t('databases.create.remoteHint', { rule: DATABASE_REMOTE_RULE })}
        error={errors.remote?.message}
        {...form.register('remote')}
      />
    </MutationDialog>
  );
}
