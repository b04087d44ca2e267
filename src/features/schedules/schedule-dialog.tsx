import { useState } from 'react';
import { scheduleBodySchema, type Schedule, type ScheduleBody } from '../../contract/schedules';
import { TextField } from '../../components/ui/field';
import { MutationDialog } from '../../components/ui/mutation-dialog';
import { Switch } from '../../components/ui/switch';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useContractForm } from '../../lib/use-contract-form';
import type { ServerRef } from '../servers/api';
import { bodyOf, useSaveSchedule } from './api';
import { CRON_FIELDS, cronFieldErrors, isTimeZone, previewRuns } from './cron-preview';
import { describeCron, weekdayName, type CronFields } from './cron-words';
import { useT } from './messages';
import { presetFields, presetOf, type Preset } from './presets';

const FIELD_LABELS = {
  minute: 'schedules.form.minute',
  hour: 'schedules.form.hour',
  day_of_month: 'schedules.form.dayOfMonth',
  month: 'schedules.form.month',
  day_of_week: 'schedules.form.dayOfWeek',
} as const satisfies Record<keyof CronFields, string>;
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
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
  const t = useT();
  const locale = useLocale();
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
  const zoneError = zone !== null && !isTimeZone(zone) ? t('schedules.form.zoneUnknown', { zone }) : undefined;
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
      title={t(schedule ? 'schedules.edit' : 'schedules.create')}
      description={t('schedules.form.description')}
      submitLabel={t(schedule ? 'schedules.save' : 'schedules.createAction')}
      form={form}
      defaultValues={defaults}
      mutation={save}
      errorFields={{ fields: ['name', ...CRON_FIELDS, 'timezone'] }}
      onSubmit={async (body, signal) => {
        const bad = Object.entries(fieldErrors);
        if (bad.length > 0 || zoneError) {
          for (const [k, message] of bad) form.setError(k as keyof CronFields, { type: 'cron', message });
          if (zoneError) form.setError('timezone', { type: 'zone', message: zoneError });
          throw new Error(t('schedules.form.hasErrors'));
        }
        const saved = await save.mutateAsync({ id: schedule?.id ?? null, body: { ...body, timezone: zone }, signal });
        onSaved?.(saved.attributes);
      }}
    >
      <TextField label={t('schedules.form.name')} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
          {t('schedules.form.runs')}
          <select className={selectClass} value={preset} onChange={(e) => fill(e.target.value as Preset)}>
            <option value="hourly">{t('schedules.cron.everyHour')}</option>
            <option value="daily">{t('schedules.form.daily')}</option>
            <option value="weekly">{t('schedules.form.weekly')}</option>
            <option value="custom">{t('schedules.form.custom')}</option>
          </select>
        </label>
        {preset === 'weekly' && (
          <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-200">
            {t('schedules.form.day')}
            <select className={selectClass} value={detected.weekday} onChange={(e) => fill('weekly', detected.time, e.target.value)}>
              {WEEKDAYS.map((d) => (
                <option key={d} value={String(d)}>
                  {weekdayName(d, locale)}
                </option>
              ))}
            </select>
          </label>
        )}
        {(preset === 'daily' || preset === 'weekly') && (
          <TextField
            label={t('schedules.form.at')}
            type="time"
            value={detected.time}
            onChange={(e) => e.target.value && fill(preset, e.target.value)}
          />
        )}
      </div>
      <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <legend className="mb-1.5 text-sm font-medium text-zinc-200">{t('schedules.form.fields')}</legend>
        {CRON_FIELDS.map((k) => (
          <TextField
            key={k}
            label={t(FIELD_LABELS[k])}
            autoComplete="off"
            spellCheck={false}
            error={errors[k]?.message ?? fieldErrors[k]}
            {...form.register(k, { onChange: () => setChoice(null) })}
          />
        ))}
      </fieldset>
      <TextField
        label={t('schedules.form.zone')}
        placeholder={panelZone ? t('schedules.form.zonePanelNamed', { zone: panelZone }) : t('schedules.form.zonePanel')}
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            {t('schedules.form.zoneHint')}{' '}
            {browserZone !== zone && (
              <button
                type="button"
                className="text-sky-400 underline"
                onClick={() => form.setValue('timezone', browserZone, { shouldValidate: true })}
              >
                {t('schedules.form.zoneMine', { zone: browserZone })}
              </button>
            )}
          </>
        }
        error={errors.timezone?.message ?? zoneError}
        {...form.register('timezone')}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-3">
        <Switch label={t('schedules.active')} checked={values.is_active ?? true} onCheckedChange={(on) => form.setValue('is_active', on)} />
        <Switch
          label={t('schedules.form.onlyOnline')}
          checked={values.only_when_online ?? false}
          onCheckedChange={(on) => form.setValue('only_when_online', on)}
        />
      </div>
      <section aria-label={t('schedules.nextRuns')} className="rounded-md bg-zinc-900/60 px-3 py-2 text-sm ring-1 ring-zinc-800">
        <p className="text-zinc-300">
          {Object.keys(fieldErrors).length === 0 ? describeCron(cron, locale) : t('schedules.form.invalid')}{' '}
          <span className="text-zinc-400">
            {zone
              ? t('schedules.form.previewZone', { zone })
              : panelZone
                ? t('schedules.form.previewPanelNamed', { zone: panelZone })
                : t('schedules.form.previewPanel')}
          </span>
        </p>
        {runs.length > 0 && (
          <ol className="mt-1 list-inside list-decimal text-zinc-400">
            {runs.map((d) => (
              <li key={d.getTime()}>{formatDateTime(d, locale, previewZone)}</li>
            ))}
          </ol>
        )}
      </section>
    </MutationDialog>
  );
}
