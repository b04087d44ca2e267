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
import { backupLimitWords } from './task-words';

const POWER_LABELS: Record<(typeof POWER_SIGNALS)[number], string> = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  kill: 'Kill (stop at once)',
};
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
      title={task ? 'Edit task' : 'Add task'}
      description="Tasks run in order, each after its offset."
      submitLabel={task ? 'Save' : 'Add'}
      form={form}
      defaultValues={defaults}
      mutation={save}
      errorFields={{ fields: ['action', 'payload', 'time_offset', 'continue_on_failure'] }}
      onSubmit={(body, signal) => save.mutateAsync({ task: task?.id ?? null, body, signal })}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={actionId} className="text-sm font-medium text-zinc-200">
          Action
        </label>
        <select
          id={actionId}
          className={selectClass}
          value={action}
          aria-invalid={errors.action ? true : undefined}
          onChange={(e) => changeAction(e.target.value as TaskBody['action'])}
        >
          <option value="command">Send command</option>
          <option value="power">Power action</option>
          <option value="backup">Create backup</option>
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
            label="Command"
            autoComplete="off"
            spellCheck={false}
            placeholder="say Restarting soon"
            error={payloadError}
            {...form.register('payload')}
          />
          {!canConsole && (
            <p role="note" className="rounded-md bg-amber-950/60 px-3 py-2 text-sm text-amber-200 ring-1 ring-inset ring-amber-900">
              You do not have the control.console permission on this server: you cannot send this command yourself, but the schedule will.
            </p>
          )}
        </>
      )}
      {action === 'power' && <PowerSelect error={payloadError} {...form.register('payload')} />}
      {action === 'backup' && (
        <>
          <TextAreaField
            label="Ignored files"
            rows={4}
            placeholder={'logs/\n*.tmp'}
            hint="One pattern per line, as in .pteroignore; empty to use the server's .pteroignore."
            error={payloadError}
            {...form.register('payload')}
          />
          <p role="note" className="text-sm text-zinc-300">
            {backupLimitWords(backupLimit)}
          </p>
        </>
      )}
      <TextField
        label="Time offset (seconds)"
        type="number"
        inputMode="numeric"
        min={0}
        max={TASK_OFFSET_MAX}
        hint={`0 to ${TASK_OFFSET_MAX}: how long after the previous task (the first: after the run starts) this one runs.`}
        error={errors.time_offset?.message}
        {...form.register('time_offset', { valueAsNumber: true })}
      />
      <Switch
        label="Continue on failure: run the next tasks even if this one fails"
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
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-200">
        Signal
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
            {POWER_LABELS[s]}
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
