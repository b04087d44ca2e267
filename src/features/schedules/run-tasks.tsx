import type { ScheduleRun } from '../../contract/schedules';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { useT } from './messages';
import type { TaskProgress, TaskState } from './run-progress';
import { TaskSummary } from './task-list';
import { outcomeWord } from './task-words';

type Tone = 'neutral' | 'info' | 'warning' | 'danger' | 'success';
const STATE_TONES: Record<TaskState, Tone> = { waiting: 'neutral', running: 'info', done: 'success', skipped: 'warning', failed: 'danger' };
const OUTCOME_TONES: Record<ScheduleRun['outcome'], Tone> = {
  running: 'info',
  done: 'success',
  failed: 'danger',
  skipped: 'warning',
  interrupted: 'warning',
};

export function OutcomeBadge({ outcome }: { outcome: ScheduleRun['outcome'] }) {
  useLocale();
  return <Badge tone={OUTCOME_TONES[outcome]}>{outcomeWord(outcome)}</Badge>;
}

/** Each task of a run: what it does, its state (waiting, running, done, skipped, failed) and why. */
export function RunTaskList({ progress, zone, label }: { progress: readonly TaskProgress[]; zone: string | undefined; label: string }) {
  const t = useT();
  const locale = useLocale();
  if (progress.length === 0) return <p className="text-sm text-zinc-400">{t('schedules.run.noTask')}</p>;
  return (
    <ol aria-label={label} className="space-y-2">
      {progress.map((p, i) => (
        <li
          key={`${p.taskId}-${i}`}
          aria-label={t('schedules.tasks.numbered', { n: i + 1, what: outcomeWord(p.state) })}
          className="flex flex-wrap items-start gap-x-3 gap-y-1 text-sm"
        >
          <span className="flex min-w-16 shrink-0 items-center gap-1.5">
            {p.state === 'running' && <Spinner className="size-3.5" label="" />}
            <Badge tone={STATE_TONES[p.state]}>{outcomeWord(p.state)}</Badge>
          </span>
          <div className="min-w-0 flex-1 basis-48">
            <p className="text-zinc-200">{p.task ? <TaskSummary task={p.task} /> : t('schedules.run.removedTask', { action: p.action })}</p>
            {p.reason && <p className="text-zinc-400">{p.reason}</p>}
          </div>
          {p.at && (
            <time className="text-xs text-zinc-400" dateTime={p.at}>
              {formatDateTime(p.at, locale, zone)}
            </time>
          )}
        </li>
      ))}
    </ol>
  );
}
