import { Link } from 'react-router';
import type { Schedule } from '../../contract/schedules';
import { Button } from '../../components/ui/button';
import { Switch } from '../../components/ui/switch';
import { formatDateTime, formatRelativeTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { cronText, describeCron } from './cron-words';
import { useT } from './messages';
import { outcomeWord } from './task-words';

function When({ at, zone }: { at: string | null; zone: string | undefined }) {
  const t = useT();
  const locale = useLocale();
  if (!at) return <span className="text-zinc-400">{t('schedules.never')}</span>;
  return (
    <time dateTime={at} title={formatDateTime(at, locale, zone)}>
      {formatRelativeTime(at, undefined, locale)}
    </time>
  );
}

/** A schedule in the list: what it is called, when it runs (in words, in its zone), its last and next run. */
export function ScheduleRow({
  schedule: s,
  canUpdate,
  canEdit,
  onToggle,
  onEdit,
  pending,
}: {
  schedule: Schedule;
  canUpdate: boolean;
  canEdit: boolean;
  onToggle: (active: boolean) => void;
  onEdit: () => void;
  pending: boolean;
}) {
  const lastRun = s.runs?.[0];
  const t = useT();
  const locale = useLocale();
  const zone = s.effective_timezone;
  return (
    <li aria-label={s.name} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 basis-full sm:basis-0">
        <p className="truncate font-medium">
          <Link to={String(s.id)} className="text-zinc-100 underline-offset-2 hover:text-sky-300 hover:underline">
            {s.name}
          </Link>
        </p>
        <p className="text-sm text-zinc-300">
          <span title={cronText(s.cron)}>{describeCron(s.cron, locale)}</span>
          {zone && <span className="text-zinc-400"> · {zone}</span>}
          {s.only_when_online && <span className="text-zinc-400"> · {t('schedules.onlyOnline')}</span>}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 text-sm">
        <dt className="text-xs text-zinc-400">{t('schedules.lastRun')}</dt>
        <dt className="text-xs text-zinc-400">{t('schedules.nextRun')}</dt>
        <dd className="text-zinc-200">
          {s.is_processing ? (
            t('schedules.runningNow')
          ) : (
            <>
              <When at={lastRun?.started_at ?? s.last_run_at} zone={zone} />
              {lastRun && <span className="text-zinc-400"> · {outcomeWord(lastRun.outcome)}</span>}
            </>
          )}
        </dd>
        <dd className="text-zinc-200">
          {s.is_active ? <When at={s.next_run_at} zone={zone} /> : <span className="text-zinc-400">{t('schedules.paused')}</span>}
        </dd>
      </dl>
      <div className="flex items-center gap-3">
        <Switch label={t('schedules.active')} checked={s.is_active} disabled={!canUpdate || pending} onCheckedChange={onToggle} />
        {canEdit && (
          <Button variant="secondary" onClick={onEdit} aria-label={t('schedules.editNamed', { name: s.name })}>
            {t('schedules.editAction')}
          </Button>
        )}
      </div>
    </li>
  );
}
