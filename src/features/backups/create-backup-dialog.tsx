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
import { useT } from './messages';

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
  const t = useT();
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
      title={t('backups.create')}
      description={t('backups.createDialog.description')}
      submitLabel={t('backups.createDialog.submit')}
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
        label={t('backups.createDialog.name')}
        autoComplete="off"
        placeholder={t('backups.createDialog.namePlaceholder')}
        hint={t('backups.createDialog.nameHint')}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={ignoredId} className="text-sm font-medium text-zinc-200">
          {t('backups.createDialog.ignored')}
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
          {t('backups.createDialog.ignoredHint')}
          {loaded ? ` ${t('backups.createDialog.ignoredFrom', { file: IGNORE_FILE })}` : ''}
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
          label={t('backups.createDialog.lock')}
        />
      ) : (
        <div className="space-y-1 text-sm text-zinc-400">
          <p>{t('backups.createDialog.noLock')}</p>
          <PermissionHint permission="backup.delete" />
        </div>
      )}
    </MutationDialog>
  );
}
