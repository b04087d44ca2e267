import type { ScheduleRun, ScheduleTask } from '../../contract/schedules';
import { t as say } from './messages';

/*
 * Each task's state in a run. The panel records a task's outcome once it has acted (the last one's
 * with the run's end), so while a run is under way the first task without an outcome is the one
 * running, or waiting out its offset when the panel says it is queued, and the rest are waiting.
 */

export type TaskState = 'waiting' | 'running' | 'done' | 'skipped' | 'failed';

export interface TaskProgress {
  taskId: number;
  sequence: number;
  action: string;
  /** The task as it stands now, when it still exists (for its words and offset). */
  task: ScheduleTask | null;
  state: TaskState;
  /** Why it failed or was skipped; for a queued task, that it waits out its offset. */
  reason: string | null;
  at: string | null;
}

export function runProgress(run: ScheduleRun, tasks: readonly ScheduleTask[]): TaskProgress[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const recorded: TaskProgress[] = run.tasks.map((r) => ({
    taskId: r.task_id,
    sequence: r.sequence_id,
    action: r.action,
    task: byId.get(r.task_id) ?? null,
    state: r.outcome,
    reason: r.reason,
    at: r.at,
  }));
  if (run.outcome !== 'running') return recorded;
  const seen = new Set(run.tasks.map((r) => r.task_id));
  const rest = [...tasks].filter((t) => !seen.has(t.id)).sort((a, b) => a.sequence_id - b.sequence_id);
  return [
    ...recorded,
    ...rest.map((t, i): TaskProgress => {
      const current = i === 0;
      return {
        taskId: t.id,
        sequence: t.sequence_id,
        action: t.action,
        task: t,
        state: current && !t.is_queued ? 'running' : 'waiting',
        reason: current && t.is_queued ? say('schedules.run.waitingOffset', { offset: t.time_offset }) : null,
        at: null,
      };
    }),
  ];
}

/** How many of a run's tasks have an outcome, of how many (for "2 of 3 tasks done"). */
export function runCounts(progress: readonly TaskProgress[]): { finished: number; total: number } {
  return { finished: progress.filter((p) => p.state !== 'waiting' && p.state !== 'running').length, total: progress.length };
}
