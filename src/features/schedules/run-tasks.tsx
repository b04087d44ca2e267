import type { ScheduleRun } from '../../contract/schedules';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { formatDateTime } from '../../lib/format';
import type { TaskProgress, TaskState } from './run-progress';
import { TaskSummary } from './task-list';

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
  return <Badge tone={OUTCOME_TONES[outcome]}>{outcome}</Badge>;
}

/** Each task of a run: what it does, its state (waiting, running, done, skipped, failed) and why. */
export function RunTaskList({ progress, zone, label }: { progress: readonly TaskProgress[]; zone: string | undefined; label: string }) {
  if (progress.length === 0) return <p className="text-sm text-zinc-400">No task ran.</p>;
  return (
    <ol aria-label={label} className="space-y-2">
      {progress.map((p, i) => (
        <li key={`${p.taskId}-${i}`} aria-label={`Task ${i + 1}: ${p.state}`} className="flex flex-wrap items-start gap-x-3 gap-y-1 text-sm">
          <span className="flex min-w-16 shrink-0 items-center gap-1.5">
            {p.state === 'running' && <Spinner className="size-3.5" label="" />}
            <Badge tone={STATE_TONES[p.state]}>{p.state}</Badge>
          </span>
          <div className="min-w-0 flex-1 basis-48">
            <p className="text-zinc-200">{p.task ? <TaskSummary task={p.task} /> : `A task since removed (${p.action})`}</p>
            {p.reason && <p className="text-zinc-400">{p.reason}</p>}
          </div>
          {p.at && (
            <time className="text-xs text-zinc-400" dateTime={p.at}>
              {formatDateTime(p.at, undefined, zone)}
            </time>
          )}
        </li>
      ))}
    </ol>
  );
}
