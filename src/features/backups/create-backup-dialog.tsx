import { useEffect, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createBackupSchema, type Backup } from '../../contract/backups';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { Switch } from '../../components/ui/switch';
import { PermissionHint, useCan } from '../../lib/permissions';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { backupQueries, IGNORE_FILE, useCreateBackup } from './api';

/**
 * Name, ignored paths (the volume's `.pteroignore` to start with, when the user may read it) and,
 * for those who may delete backups, the lock: the panel ignores a lock asked for without it.
 */
export function CreateBackupDialog({
  server,
  open,
  onOpenChange,
  onCreated,
}: {
  server: ServerRef;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (backup: Backup) => void;
}) {
  const canLock = useCan('backup.delete');
  const canReadFiles = useCan('file.read-content');
  const ignoreFile = useQuery({ ...backupQueries.ignoreFile(server), enabled: open && canReadFiles });
  const create = useCreateBackup(server);
  const defaultValues = { name: '', ignored: ignoreFile.data ?? '', is_locked: false };
  const form = useContractForm(createBackupSchema, defaultValues);
  const ignoredId = useId();
  const { errors } = form.formState;

  // The file may arrive after the dialog opened: put it in unless the user already typed there.
  const loaded = ignoreFile.data;
  useEffect(() => {
    if (open && loaded && !form.getFieldState('ignored').isDirty) form.setValue('ignored', loaded);
  }, [open, loaded, form]);

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create backup"
      description="An archive of every file of the server, kept on its node. It runs in the background; the server keeps running."
      submitLabel="Create"
      form={form}
      defaultValues={defaultValues}
      mutation={create}
      errorFields={{ fields: ['name', 'ignored', 'is_locked'] }}
      onSubmit={async (values, signal) => {
        const created = await create.mutateAsync({
          name: values.name ?? '',
          ignored: values.ignored ?? '',
          is_locked: canLock && (values.is_locked ?? false),
          signal,
        });
        onCreated(created.attributes);
      }}
    >
      <TextField
        label="Name"
        autoComplete="off"
        placeholder="Backup at the current date and time"
        hint="Leave it empty to name it after the date and time."
        error={errors.name?.message}
        {...form.register('name')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={ignoredId} className="text-sm font-medium text-zinc-200">
          Ignored files
        </label>
        <textarea
          id={ignoredId}
          rows={4}
          spellCheck={false}
          aria-describedby={`${ignoredId}-hint`}
          aria-invalid={errors.ignored ? true : undefined}
          className="rounded-md bg-zinc-900 px-3 py-2 font-mono text-sm text-zinc-100 ring-1 ring-zinc-700 ring-inset focus:ring-2 focus:ring-sky-500 focus:outline-none"
          {...form.register('ignored')}
        />
        <p id={`${ignoredId}-hint`} className="text-xs text-zinc-400">
          One pattern per line, as in .gitignore; matching files and folders are left out.
          {loaded ? ` Filled in from ${IGNORE_FILE}.` : ''}
        </p>
        {errors.ignored?.message && (
          <p role="alert" className="text-sm text-red-400">
            {errors.ignored.message}
          </p>
        )}
      </div>
      {canLock ? (
        <Switch
          checked={form.watch('is_locked') ?? false}
          onCheckedChange={(checked) => form.setValue('is_locked', checked, { shouldDirty: true })}
          label="Lock: it cannot be deleted until it is unlocked"
        />
      ) : (
        <div className="space-y-1 text-sm text-zinc-400">
          <p>Your account may not lock backups.</p>
          <PermissionHint permission="backup.delete" />
        </div>
      )}
    </MutationDialog>
  );
}
