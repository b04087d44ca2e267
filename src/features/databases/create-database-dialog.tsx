import { createDatabaseSchema, DATABASE_NAME_RULE, DATABASE_REMOTE_RULE, type ServerDatabase } from '../../contract/databases';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { useCreateDatabase } from './api';

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
  const create = useCreateDatabase(server);
  const form = useContractForm(createDatabaseSchema, defaultValues);
  const { errors } = form.formState;

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New database"
      description="A MySQL-compatible database and a user of its own with a random password, for plugins, web maps and the like."
      submitLabel="Create"
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
        label="Database name"
        autoComplete="off"
        spellCheck={false}
        hint={`${DATABASE_NAME_RULE} The server's number is put in front of it.`}
        error={errors.database?.message}
        {...form.register('database')}
      />
      <TextField
        label="Connections from"
        autoComplete="off"
        spellCheck={false}
        hint={`${DATABASE_REMOTE_RULE} % allows any address.`}
        error={errors.remote?.message}
        {...form.register('remote')}
      />
    </MutationDialog>
  );
}
