import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Schedule } from '../../contract/schedules';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { QueryList } from '../../components/ui/query-list';
import { EmptyState } from '../../components/ui/states';
import { applyApiErrors } from '../../lib/form-errors';
import { PermissionHint, useCan } from '../../lib/permissions';
import { useServerRef } from '../servers/api';
import { bodyOf, scheduleQueries, useSaveSchedule } from './api';
import { useT } from './messages';
import { ScheduleDialog } from './schedule-dialog';
import { ScheduleRow } from './schedule-row';

/** The server's schedules: each one's times in words, its last and next run, active on or off; create and edit. */
export function SchedulesPage() {
  const ref = useServerRef();
  const [canCreate, canUpdate] = [useCan('schedule.create'), useCan('schedule.update')];
  const query = useQuery(scheduleQueries.list(ref));
  const toggle = useSaveSchedule(ref);
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const hintId = useId();
  const t = useT();
  const schedules = (query.data?.data ?? []).map((s) => s.attributes);
  // A schedule without a zone of its own tells the panel's: the editor previews in it.
  const panelZone = schedules.find((s) => (s.timezone ?? null) === null && s.effective_timezone)?.effective_timezone ?? null;
  const toggleError = toggle.error ? applyApiErrors(toggle.error, () => undefined, { fields: [] }) : null;

  return (
    <section aria-labelledby="schedules-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="schedules-heading" className="text-lg font-semibold text-white">
          {t('schedules.title')}
        </h2>
        <Button onClick={() => setEditing('new')} disabled={!canCreate || !query.data} aria-describedby={canCreate ? undefined : hintId}>
          {t('schedules.create')}
        </Button>
      </div>
      <PermissionHint id={hintId} permission={['schedule.create', 'schedule.update']} />
      <FormError message={toggleError} />
      <QueryList
        query={query}
        items={query.data ? schedules : undefined}
        empty={
          <EmptyState title={t('schedules.empty')}>
            {t('schedules.emptyText')}
            {canCreate && ` ${t('schedules.emptyCreate')}`}
          </EmptyState>
        }
      >
        {(shown) => (
          <ul aria-label={t('schedules.title')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
            {shown.map((s) => (
              <ScheduleRow
                key={s.id}
                schedule={s}
                canUpdate={canUpdate}
                canEdit={canUpdate}
                pending={toggle.isPending && toggle.variables.id === s.id}
                onToggle={(active) => toggle.mutate({ id: s.id, body: { ...bodyOf(s), is_active: active } })}
                onEdit={() => setEditing(s)}
              />
            ))}
          </ul>
        )}
      </QueryList>
      <ScheduleDialog
        server={ref}
        schedule={editing === 'new' ? null : editing}
        open={editing !== null}
        onOpenChange={(o) => {
          if (!o) setEditing(null);
        }}
        panelZone={panelZone}
      />
    </section>
  );
}
