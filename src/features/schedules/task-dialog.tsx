import { forwardRef, useId, type SelectHTMLAttributes } from 'react';
import { TASK_OFFSET_MAX, taskBodySchema, type ScheduleTask, type TaskBody } from '../../contract/schedules';
import { POWER_SIGNALS } from '../../contract/websocket';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { Switch } from '../../components/ui/switch';
import { useCan } from '../../lib/permissions';
import { useContractForm } from '../../lib/use-contract-form';
import { useServer, type ServerRef } from '../servers/api';
import { taskBodyOf, useSaveTask } from './api';
import { useT } from './messages';
import { backupLimitWords } from './task-words';

const POWER_LABELS = {
  start: 'schedules.task.signal.start',
  stop: 'schedules.task.signal.stop',
  restart: 'schedules.task.signal.restart',
  kill: 'schedules.task.signal.kill',
} as const satisfies Record<(typeof POWER_SIGNALS)[number], string>;
const selectClass = 'min-h-10 rounded-md bg-zinc-900 px-3 py-2 text-zinc-100 ring-1 ring-inset ring-zinc-700 focus:ring-2 focus:ring-sky-500';
const blank: TaskBody = { action: 'command', payload: '', time_offset: 0, continue_on_failure: false };

/**
 * Adds a task to a schedule or edits one: its action (a console command, a power signal, or a
 * backup with the files it leaves out), its offset, and whether the run goes on after it fails.
 * What the panel refuses lands on the field it names.
 */
export function TaskDialog({
  server,
  scheduleId,
  task,
  open,
  onOpenChange,
}: {
  server: ServerRef;
  scheduleId: number;
  /** null to add one. */
  task: ScheduleTask | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveTask(server, scheduleId);
  const t = useT();
  const canConsole = useCan('control.console');
  const backupLimit = useServer().feature_limits.backups;
  const defaults = task ? taskBodyOf(task) : blank;
  const form = useContractForm(taskBodySchema, defaults);
  const { errors } = form.formState;
  const action = form.watch('action');
  const actionId = useId();
  const payloadError = errors.payload?.message;

  const changeAction = (next: TaskBody['action']) => {
    form.setValue('action', next);
    // Each action reads its payload differently: a command's line is no power signal.
    form.setValue('payload', next === 'power' ? 'restart' : '');
    form.clearErrors('payload');
  };

  return (
    <MutationDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(task ? 'schedules.tasks.edit' : 'schedules.tasks.add')}
      description={t('schedules.task.description')}
      submitLabel={t(task ? 'schedules.save' : 'schedules.tasks.addAction')}
      form={form}
      defaultValues={defaults}
      mutation={save}
      errorFields={{ fields: ['action', 'payload', 'time_offset', 'continue_on_failure'] }}
      onSubmit={(body, signal) => save.mutateAsync({ task: task?.id ?? null, body, signal })}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={actionId} className="text-sm font-medium text-zinc-200">
          {t('schedules.task.action')}
        </label>
        <select
          id={actionId}
          className={selectClass}
          value={action}
          aria-invalid={errors.action ? true : undefined}
          onChange={(e) => changeAction(e.target.value as TaskBody['action'])}
        >
          <option value="command">{t('schedules.task.command')}</option>
          <option value="power">{t('schedules.task.power')}</option>
          <option value="backup">{t('schedules.task.createBackup')}</option>
        </select>
        {errors.action?.message && (
          <p role="alert" className="text-sm text-red-400">
            {errors.action.message}
          </p>
        )}
      </div>
      {action === 'command' && (
        <>
          <TextField
            label={t('schedules.task.commandLabel')}
            autoComplete="off"
            spellCheck={false}
            placeholder={t('schedules.task.commandPlaceholder')}
            error={payloadError}
            {...form.register('payload')}
          />
          {!canConsole && (
            <p role="note" className="rounded-md bg-amber-950/60 px-3 py-2 text-sm text-amber-200 ring-1 ring-inset ring-amber-900">
              {t('schedules.task.noConsole', { permission: 'control.console' })}
            </p>
          )}
        </>
      )}
      {action === 'power' && <PowerSelect error={payloadError} {...form.register('payload')} />}
      {action === 'backup' && (
        <>
          <TextAreaField
            label={t('schedules.task.ignored')}
            rows={4}
            placeholder={'logs/\n*.tmp'}
            hint={t('schedules.task.ignoredHint')}
            error={payloadError}
            {...form.register('payload')}
          />
          <p role="note" className="text-sm text-zinc-300">
            {backupLimitWords(backupLimit)}
          </p>
        </>
      )}
      <TextField
        label={t('schedules.task.offset')}
        type="number"
        inputMode="numeric"
        min={0}
        max={TASK_OFFSET_MAX}
        hint={t('schedules.task.offsetHint', { max: TASK_OFFSET_MAX })}
        error={errors.time_offset?.message}
        {...form.register('time_offset', { valueAsNumber: true })}
      />
      <Switch
        label={t('schedules.task.continue')}
        checked={form.watch('continue_on_failure') ?? false}
        onCheckedChange={(on) => form.setValue('continue_on_failure', on)}
      />
      {errors.continue_on_failure?.message && (
        <p role="alert" className="text-sm text-red-400">
          {errors.continue_on_failure.message}
        </p>
      )}
    </MutationDialog>
  );
}

/** The four signals a power task may send, and nothing else. */
const PowerSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { error?: string }>(function PowerSelect(
  { error, ...rest },
  ref,
) {
  const id = useId();
  const t = useT();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-200">
        {t('schedules.task.signal')}
      </label>
      <select
        ref={ref}
        id={id}
        className={selectClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...rest}
      >
        {POWER_SIGNALS.map((s) => (
          <option key={s} value={s}>
            {t(POWER_LABELS[s])}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
});
