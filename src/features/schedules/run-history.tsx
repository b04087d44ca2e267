import type { Schedule } from '../../contract/schedules';
import { EmptyState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/format';
import { runProgress } from './run-progress';
import { OutcomeBadge, RunTaskList } from './run-tasks';
import { TRIGGER_WORDS } from './task-words';

/** The schedule's latest runs, newest first: what started each, when, how it ended and why, and each task's part. */
export function RunHistory({ schedule }: { schedule: Schedule }) {
  const zone = schedule.effective_timezone;
  const tasks = schedule.relationships.tasks.data.map((t) => t.attributes);
  const runs = schedule.runs;
  return (
    <section aria-labelledby="runs-heading" className="space-y-3">
      <h3 id="runs-heading" className="font-semibold text-white">
        Run history
      </h3>
      {runs === undefined ? (
        <p className="text-sm text-zinc-400">This panel does not report its schedules&apos; runs.</p>
      ) : runs.length === 0 ? (
        <EmptyState title="No runs yet">Each run shows here, with what each task did.</EmptyState>
      ) : (
        <ul aria-label="Runs" className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
          {runs.map((run) => (
            <li key={run.id} aria-label={`${TRIGGER_WORDS[run.trigger]}, started ${formatDateTime(run.started_at, undefined, zone)}: ${run.outcome}`}>
              <details className="group px-4 py-3">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm [&::-webkit-details-marker]:hidden">
                  {/* A flex summary loses its marker: this one turns as the run opens. */}
                  <span aria-hidden="true" className="text-zinc-400 transition-transform group-open:rotate-90">
                    ▸
                  </span>
                  <OutcomeBadge outcome={run.outcome} />
                  <span className="font-medium text-zinc-100">{TRIGGER_WORDS[run.trigger]}</span>
                  <span className="text-zinc-300">
                    started <time dateTime={run.started_at}>{formatDateTime(run.started_at, undefined, zone)}</time>
                    {run.finished_at && (
                      <>
                        , finished <time dateTime={run.finished_at}>{formatDateTime(run.finished_at, undefined, zone)}</time>
                      </>
                    )}
                  </span>
                  {run.reason && <span className="basis-full text-zinc-400">{run.reason}</span>}
                </summary>
                <div className="mt-3 border-t border-zinc-800 pt-3">
                  <RunTaskList progress={runProgress(run, tasks)} zone={zone} label={`Tasks of the run started ${run.started_at}`} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
