import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import type { Schedule } from '../../contract/schedules';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { ErrorState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { PermissionHint, useCan } from '../../lib/permissions';
import { serverPath } from '../../app/paths';
import { useServer, useServerRef } from '../servers/api';
import { scheduleQueries, useDeleteSchedule } from './api';
import { previewRuns } from './cron-preview';
import { cronText, describeCron } from './cron-words';
import { useT } from './messages';
import { RunHistory } from './run-history';
import { RunNowButton, RunProgressPanel } from './run-now';
import { ScheduleDialog } from './schedule-dialog';
import { TaskList } from './task-list';
import { DocumentTitle, pageTitle } from '../../lib/panel-name';

/** /server/:id/schedules/:scheduleId: one schedule, its tasks, Run now and its runs. */
export function SchedulePage() {
  const ref = useServerRef();
  const id = Number(useParams().scheduleId);
  const query = useQuery({ ...scheduleQueries.detail(ref, id), enabled: Number.isSafeInteger(id) && id > 0 });
  const t = useT();
  if (!Number.isSafeInteger(id) || id <= 0) return <ErrorState error={new Error(t('schedules.noId'))} />;
  if (query.isPending) return <PageSpinner />;
  if (!query.data) return <ErrorState error={query.error} />;
  return <ScheduleView schedule={query.data.attributes} />;
}

function ScheduleView({ schedule: s }: { schedule: Schedule }) {
  const ref = useServerRef();
  const serverName = useServer().name;
  const navigate = useNavigate();
  const t = useT();
  const locale = useLocale();
  const [canUpdate, canDelete] = [useCan('schedule.update'), useCan('schedule.delete')];
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [watched, setWatched] = useState(false);
  const remove = useDeleteSchedule(ref);
  const zone = s.effective_timezone;
  const listHref = serverPath(ref.routeId, 'schedules');
  const next = s.is_active && zone ? previewRuns(s.cron, zone, 3) : [];

  return (
    <section aria-labelledby="schedule-heading" className="space-y-5">
      <DocumentTitle>{pageTitle(s.name, t('schedules.title'), serverName)}</DocumentTitle>
      <Link to={listHref} className="text-sm text-sky-400 hover:text-sky-300">
        {t('schedules.back')}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="schedule-heading" className="text-lg font-semibold break-words text-white">
            {s.name}
          </h2>
          <p className="text-zinc-300">
            <span title={cronText(s.cron)}>{describeCron(s.cron, locale)}</span>
            {zone && <span className="text-zinc-400"> · {zone}</span>}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {canUpdate && <RunNowButton server={ref} schedule={s} onStarted={() => setWatched(true)} />}
          {canUpdate && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              {t('schedules.editAction')}
            </Button>
          )}
          {canDelete && (
            <Button variant="danger" onClick={() => setDeleting(true)}>
              {t('schedules.deleteAction')}
            </Button>
          )}
        </div>
      </div>
      <PermissionHint permission={['schedule.update', 'schedule.delete']} />
      <dl className="grid gap-x-8 gap-y-3 rounded-lg bg-zinc-900/60 px-4 py-3 text-sm ring-1 ring-zinc-800 sm:grid-cols-3">
        <div>
          <dt className="text-xs text-zinc-400">{t('schedules.state')}</dt>
          <dd className="mt-1 flex flex-wrap gap-1.5">
            {s.is_active ? <Badge tone="success">{t('schedules.badge.active')}</Badge> : <Badge>{t('schedules.paused')}</Badge>}
            {s.only_when_online && <Badge>{t('schedules.onlyOnline')}</Badge>}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">{t('schedules.cron')}</dt>
          <dd className="mt-1 font-mono text-zinc-200">{cronText(s.cron)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">{t('schedules.nextRuns')}</dt>
          <dd className="mt-1 text-zinc-200">
            {!s.is_active ? (
              t('schedules.pausedNext')
            ) : next.length > 0 ? (
              <ol aria-label={t('schedules.nextRuns')}>
                {next.map((d) => (
                  <li key={d.getTime()}>{formatDateTime(d, locale, zone)}</li>
                ))}
              </ol>
            ) : s.next_run_at ? (
              formatDateTime(s.next_run_at, locale, zone)
            ) : (
              t('schedules.none')
            )}
          </dd>
        </div>
      </dl>
      <RunProgressPanel schedule={s} watched={watched} onDismiss={() => setWatched(false)} />
      <TaskList server={ref} schedule={s} canUpdate={canUpdate} />
      <RunHistory schedule={s} />
      {canUpdate && (
        <ScheduleDialog server={ref} schedule={s} open={editing} onOpenChange={setEditing} panelZone={s.timezone ? null : (zone ?? null)} />
      )}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={t('schedules.delete.title')}
        description={t('schedules.delete.text', { name: s.name })}
        confirmLabel={t('schedules.deleteAction')}
        danger
        mutation={remove}
        onConfirm={async (signal) => {
          await remove.mutateAsync({ id: s.id, signal });
          void navigate(listHref);
        }}
      />
    </section>
  );
}
