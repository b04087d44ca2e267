import { useState } from 'react';
import type { Schedule } from '../../contract/schedules';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Spinner } from '../../components/ui/spinner';
import type { ServerRef } from '../servers/api';
import { isRunning, useRunSchedule } from './api';
import { t as say, useT } from './messages';
import { runCounts, runProgress } from './run-progress';
import { OutcomeBadge, RunTaskList } from './run-tasks';

/** Why Run now is off, or null when it can be used. */
export function runNowBlockedBy(schedule: Schedule): string | null {
  if (schedule.relationships.tasks.data.length === 0) return say('schedules.runNow.noTasks');
  if (isRunning(schedule)) return say('schedules.runNow.running');
  return null;
}

/** The Run now button and the question it asks first. */
export function RunNowButton({ server, schedule, onStarted }: { server: ServerRef; schedule: Schedule; onStarted: () => void }) {
  const [asking, setAsking] = useState(false);
  const t = useT();
  const run = useRunSchedule(server, schedule.id);
  const blocked = runNowBlockedBy(schedule);
  return (
    <>
      <Button onClick={() => setAsking(true)} disabled={blocked !== null} title={blocked ?? undefined}>
        {t('schedules.runNow')}
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('schedules.runNow')}
        description={t('schedules.runNow.text', { name: schedule.name })}
        confirmLabel={t('schedules.runNow')}
        mutation={run}
        onConfirm={async (signal) => {
          await run.mutateAsync({ signal });
          onStarted();
        }}
      />
    </>
  );
}

/**
 * The run under way (or the one just started here, once it has ended): each task's state as the
 * detail query, polled each second while it runs, reports it, then the outcome.
 */
export function RunProgressPanel({ schedule, watched, onDismiss }: { schedule: Schedule; watched: boolean; onDismiss: () => void }) {
  const t = useT();
  const running = isRunning(schedule);
  const run = schedule.runs?.[0];
  if (!running && !watched) return null;
  const tasks = schedule.relationships.tasks.data.map((t) => t.attributes);
  const progress = run ? runProgress(run, tasks) : [];
  const counts = runCounts(progress);
  return (
    <section aria-label={t('schedules.run.current')} aria-live="polite" className="space-y-3 rounded-lg bg-zinc-900/60 p-4 ring-1 ring-sky-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 font-medium text-zinc-100">
          {running ? (
            <>
              <Spinner className="size-4" label="" /> {t('schedules.run.progress', counts)}
            </>
          ) : run ? (
            <>
              {t('schedules.run.finished')} <OutcomeBadge outcome={run.outcome} />
            </>
          ) : (
            t('schedules.run.finished')
          )}
        </p>
        {!running && (
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            {t('schedules.run.dismiss')}
          </Button>
        )}
      </div>
      {!running && run?.reason && <p className="text-sm text-zinc-300">{run.reason}</p>}
      {/* A reference panel reports no runs: only that the schedule is processing. */}
      {run && <RunTaskList progress={progress} zone={schedule.effective_timezone} label={t('schedules.run.currentTasks')} />}
    </section>
  );
}
