import type { Schedule } from '../../contract/schedules';
import { EmptyState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/format';
import { useLocale } from '../../lib/i18n/catalog';
import { T, useT } from './messages';
import { runProgress } from './run-progress';
import { OutcomeBadge, RunTaskList } from './run-tasks';
import { outcomeWord, triggerWords } from './task-words';

/** The schedule's latest runs, newest first: what started each, when, how it ended and why, and each task's part. */
export function RunHistory({ schedule }: { schedule: Schedule }) {
  const zone = schedule.effective_timezone;
  const tasks = schedule.relationships.tasks.data.map((t) => t.attributes);
  const runs = schedule.runs;
  const t = useT();
  const locale = useLocale();
  const at = (value: string) => formatDateTime(value, locale, zone);
  return (
    <section aria-labelledby="runs-heading" className="space-y-3">
      <h3 id="runs-heading" className="font-semibold text-white">
        {t('schedules.runs.title')}
      </h3>
      {runs === undefined ? (
        <p className="text-sm text-zinc-400">{t('schedules.runs.unreported')}</p>
      ) : runs.length === 0 ? (
        <EmptyState title={t('schedules.runs.empty')}>{t('schedules.runs.emptyText')}</EmptyState>
      ) : (
        <ul aria-label={t('schedules.runs.list')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
          {runs.map((run) => (
            <li
              key={run.id}
              aria-label={t('schedules.runs.label', {
                trigger: triggerWords(run.trigger),
                start: at(run.started_at),
                outcome: outcomeWord(run.outcome),
              })}
            >
              <details className="group px-4 py-3">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm [&::-webkit-details-marker]:hidden">
                  {/* A flex summary loses its marker: this one turns as the run opens. */}
                  <span aria-hidden="true" className="text-zinc-400 transition-transform group-open:rotate-90">
                    ▸
                  </span>
                  <OutcomeBadge outcome={run.outcome} />
                  <span className="font-medium text-zinc-100">{triggerWords(run.trigger)}</span>
                  <span className="text-zinc-300">
                    {run.finished_at ? (
                      <T
                        k="schedules.runs.startedFinished"
                        values={{ start: at(run.started_at), end: at(run.finished_at) }}
                        components={{ 0: <time dateTime={run.started_at} />, 1: <time dateTime={run.finished_at} /> }}
                      />
                    ) : (
                      <T k="schedules.runs.started" values={{ start: at(run.started_at) }} components={{ 0: <time dateTime={run.started_at} /> }} />
                    )}
                  </span>
                  {run.reason && <span className="basis-full text-zinc-400">{run.reason}</span>}
                </summary>
                <div className="mt-3 border-t border-zinc-800 pt-3">
                  <RunTaskList progress={runProgress(run, tasks)} zone={zone} label={t('schedules.runs.tasks', { start: run.started_at })} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
