import { describe, expect, it } from 'vitest';
import type { ScheduleRun, ScheduleTask } from '../../contract/schedules';
import { runCounts, runProgress } from './run-progress';

const task = (id: number, sequence: number, over: Partial<ScheduleTask> = {}): ScheduleTask => ({
  id,
  sequence_id: sequence,
  action: 'command',
  payload: `say ${id}`,
  time_offset: 0,
  is_queued: false,
  continue_on_failure: false,
  created_at: '2026-01-01T00:00:00+00:00',
  updated_at: null,
  ...over,
});
const run = (over: Partial<ScheduleRun>): ScheduleRun => ({
  id: 1,
  trigger: 'manual',
  outcome: 'running',
  reason: null,
  tasks: [],
  started_at: '2026-01-01T04:00:00+00:00',
  finished_at: null,
  ...over,
});
const done = (id: number, sequence: number) => ({
  task_id: id,
  sequence_id: sequence,
  action: 'command',
  outcome: 'done' as const,
  reason: null,
  at: '2026-01-01T04:00:01+00:00',
});

describe('runProgress', () => {
  const tasks = [task(12, 2, { action: 'power', payload: 'restart', time_offset: 2 }), task(11, 1), task(13, 3)];

  it('marks the first task without an outcome running and the rest waiting, in sequence order', () => {
    const p = runProgress(run({}), tasks);
    expect(p.map((t) => [t.taskId, t.state])).toEqual([
      [11, 'running'],
      [12, 'waiting'],
      [13, 'waiting'],
    ]);
  });

  it('says a queued task waits out its offset', () => {
    const p = runProgress(
      run({ tasks: [done(11, 1)] }),
      tasks.map((t) => (t.id === 12 ? { ...t, is_queued: true } : t)),
    );
    expect(p.map((t) => t.state)).toEqual(['done', 'waiting', 'waiting']);
    expect(p[1]?.reason).toBe('Waiting out its 2 s offset.');
    expect(runCounts(p)).toEqual({ finished: 1, total: 3 });
  });

  it('shows a finished run as recorded, with reasons, and the tasks since deleted without their words', () => {
    const p = runProgress(
      run({
        outcome: 'failed',
        finished_at: '2026-01-01T04:01:00+00:00',
        tasks: [
          done(11, 1),
          { ...done(99, 2), outcome: 'failed', reason: 'The server is offline.' },
          { ...done(13, 3), outcome: 'skipped', reason: 'An earlier task failed.' },
        ],
      }),
      tasks,
    );
    expect(p.map((t) => [t.state, t.reason, t.task?.id ?? null])).toEqual([
      ['done', null, 11],
      ['failed', 'The server is offline.', null],
      ['skipped', 'An earlier task failed.', 13],
    ]);
    expect(runCounts(p)).toEqual({ finished: 3, total: 3 });
  });
});
