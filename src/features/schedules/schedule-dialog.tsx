import { useState } from 'react';
import { scheduleBodySchema, type Schedule, type ScheduleBody } from '../../contract/schedules';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { Switch } from '../../components/ui/switch';
import { formatDateTime } from '../../lib/format';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { bodyOf, useSaveSchedule } from './api';
import { CRON_FIELDS, cronFieldErrors, isTimeZone, previewRuns } from './cron-preview';
import { describeCron, type CronFields } from './cron-words';
import { presetFields, presetOf, type Preset } from './presets';

const FIELD_LABELS: Record<keyof CronFields, string> = {
  minute: 'Minute',
  hour: 'Hour',
  day_of_month: 'Day of month',
  month: 'Month',
  day_of_week: 'Day of week',
};
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const blank: ScheduleBody = {
  name: '',
  minute: '0',
  hour: '4',
  day_of_month: '*',
  month: '*',
  day_of_week: '*',
  is_active: true,
  only_when_online: false,
  timezone: null,
};
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const selectClass = 'min-h-10 rounded-md bg-zinc-900 px-3 py-2 text-zinc-100 ring-1 ring-inset ring-zinc-700 focus:ring-2 focus:ring-sky-500';

/**
 * Create or edit a schedule: presets that fill the five cron fields, the fields themselves, a zone
 * (empty for the panel's), and the next five runs worked out here as the fields change, so a bad
 * expression is caught on its field before anything is sent.
 */
export function ScheduleDialog({
  server,
  schedule,
  open,
  onOpenChange,
  panelZone,
  onSaved,
}: {
  server: ServerRef;
  /** null to create one. */
  schedule: Schedule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The panel's zone when known (from a schedule that uses it), for the preview of a schedule without its own. */
  panelZone: string | null;
  onSaved?: (schedule: Schedule) => void;
}) {
  const save = useSaveSchedule(server);
  const defaults = schedule ? { ...bodyOf(schedule), timezone: schedule.timezone ?? null } : blank;
  const form = useContractForm(scheduleBodySchema, defaults);
  const { errors } = form.formState;
  const values = form.watch();
  const cron: CronFields = {
    minute: values.minute ?? '',
    hour: values.hour ?? '',
    day_of_month: values.day_of_month ?? '',
    month: values.month ?? '',
    day_of_week: values.day_of_week ?? '',
  };
  const [choice, setChoice] = useState<Preset | null>(null);
  const detected = presetOf(cron);
  const preset = choice ?? detected.preset;
  const fieldErrors = cronFieldErrors(cron);
  const zone = values.timezone?.trim() ? values.timezone.trim() : null;
  const zoneError = zone !== null && !isTimeZone(zone) ? `The time zone "${zone}" is not a known IANA time zone.` : undefined;
  const previewZone = zone ?? panelZone ?? browserZone;
  const runs = zoneError ? [] : previewRuns(cron, previewZone);

  const fill = (p: Preset, time = detected.time, weekday = detected.weekday) => {
    setChoice(p);
    if (p === 'custom') return;
    for (const [k, v] of Object.entries(presetFields(p, time, weekday))) form.setValue(k as keyof CronFields, v, { shouldValidate: true });
  };

  return (
    <MutationDialog
      open={open}
      onOpenChange={(o) => {
        if (o) setChoice(null);
        onOpenChange(o);
      }}
      wide
      title={schedule ? 'Edit schedule' : 'Create schedule'}
      description="Runs its tasks (console commands, power actions, backups) at the times below."
      submitLabel={schedule ? 'Save' : 'Create'}
      form={form}
      defaultValues={defaults}
      mutation={save}
      errorFields={{ fields: ['name', ...CRON_FIELDS, 'timezone'] }}
      onSubmit={async (body, signal) => {
        const bad = Object.entries(fieldErrors);
        if (bad.length > 0 || zoneError) {
          for (const [k, message] of bad) form.setError(k as keyof CronFields, { type: 'cron', message });
          if (zoneError) form.setError('timezone', { type: 'zone', message: zoneError });
          throw new Error('The schedule has errors.');
        }
        const saved = await save.mutateAsync({ id: schedule?.id ?? null, body: { ...body, timezone: zone }, signal });
        onSaved?.(saved.attributes);
      }}
    >
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
          Runs
          <select className={selectClass} value={preset} onChange={(e) => fill(e.target.value as Preset)}>
            <option value="hourly">Every hour</option>
            <option value="daily">Every day at…</option>
            <option value="weekly">Every week on…</option>
            <option value="custom">Custom</option>
          </select>
        </label>
        {preset === 'weekly' && (
          <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
            Day
            <select className={selectClass} value={detected.weekday} onChange={(e) => fill('weekly', detected.time, e.target.value)}>
              {WEEKDAYS.map((d, i) => (
                <option key={d} value={String(i)}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        )}
        {(preset === 'daily' || preset === 'weekly') && (
          <TextField label="At" type="time" value={detected.time} onChange={(e) => e.target.value && fill(preset, e.target.value)} />
        )}
      </div>
      <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <legend className="mb-1.5 text-sm font-medium text-zinc-200">Cron fields</legend>
        {CRON_FIELDS.map((k) => (
          <TextField
            key={k}
            label={FIELD_LABELS[k]}
            autoComplete="off"
            spellCheck={false}
            error={errors[k]?.message ?? fieldErrors[k]}
            {...form.register(k, { onChange: () => setChoice(null) })}
          />
        ))}
      </fieldset>
      <TextField
        label="Time zone"
        placeholder={panelZone ? `The panel's (${panelZone})` : "The panel's"}
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            Empty for the panel&apos;s time zone.{' '}
            {browserZone !== zone && (
              <button
                type="button"
                className="text-sky-400 underline"
                onClick={() => form.setValue('timezone', browserZone, { shouldValidate: true })}
              >
                Use mine ({browserZone})
              </button>
            )}
          </>
        }
        error={errors.timezone?.message ?? zoneError}
        {...form.register('timezone')}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-3">
        <Switch label="Active" checked={values.is_active ?? true} onCheckedChange={(on) => form.setValue('is_active', on)} />
        <Switch
          label="Only when the server is online"
          checked={values.only_when_online ?? false}
          onCheckedChange={(on) => form.setValue('only_when_online', on)}
        />
      </div>
      <section aria-label="Next runs" className="rounded-md bg-zinc-900/60 px-3 py-2 text-sm ring-1 ring-zinc-800">
        <p className="text-zinc-300">
          {Object.keys(fieldErrors).length === 0 ? describeCron(cron) : 'Not a valid schedule yet.'}{' '}
          <span className="text-zinc-400">({zone ?? (panelZone ? `${panelZone}, the panel's` : "the panel's time zone")})</span>
        </p>
        {runs.length > 0 && (
          <ol className="mt-1 list-inside list-decimal text-zinc-400">
            {runs.map((d) => (
              <li key={d.getTime()}>{formatDateTime(d, undefined, previewZone)}</li>
            ))}
          </ol>
        )}
      </section>
    </MutationDialog>
  );
}
