import { useState } from 'react';
import type { Schedule, ScheduleTask } from '../../contract/schedules';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormError } from '../../components/ui/field';
import { EmptyState } from '../../components/ui/states';
import { applyApiErrors } from '../../lib/form-errors';
import type { ServerRef } from '../servers/api';
import { taskBodyOf, useDeleteTask, useSaveTask } from './api';
import { useT } from './messages';
import { TaskDialog } from './task-dialog';
import { offsetWords, taskText, taskWords } from './task-words';

/** What a task does, with a command shown as code. */
export function TaskSummary({ task }: { task: Pick<ScheduleTask, 'action' | 'payload'> }) {
  const words = taskWords(task);
  return (
    <>
      {words.text}
      {words.code !== undefined && (
        <>
          {' '}
          <code className="rounded bg-zinc-800 px-1.5 py-0.5 font-mono text-[0.85em] break-all text-zinc-100">{words.code}</code>
        </>
      )}
    </>
  );
}

/**
 * A schedule's tasks in the order they run, each in words with its offset; with schedule.update,
 * add, edit, move up or down (the task's own update, with its new `sequence_id`) and delete.
 */
export function TaskList({ server, schedule, canUpdate }: { server: ServerRef; schedule: Schedule; canUpdate: boolean }) {
  const tasks = [...schedule.relationships.tasks.data.map((t) => t.attributes)].sort((a, b) => a.sequence_id - b.sequence_id);
  const [editing, setEditing] = useState<ScheduleTask | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ScheduleTask | null>(null);
  const move = useSaveTask(server, schedule.id);
  const remove = useDeleteTask(server, schedule.id);
  const moveError = move.error ? applyApiErrors(move.error, () => undefined, { fields: [] }) : null;
  const moveTo = (task: ScheduleTask, sequence: number) => move.mutate({ task: task.id, body: { ...taskBodyOf(task), sequence_id: sequence } });
  const t = useT();

  return (
    <section aria-labelledby="tasks-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="tasks-heading" className="font-semibold text-white">
          {t('schedules.tasks.title')}
        </h3>
        {canUpdate && <Button onClick={() => setEditing('new')}>{t('schedules.tasks.add')}</Button>}
      </div>
      <FormError message={moveError} />
      {tasks.length === 0 ? (
        <EmptyState title={t('schedules.tasks.empty')}>
          {t('schedules.tasks.emptyText')}
          {canUpdate && ` ${t('schedules.tasks.emptyAdd')}`}
        </EmptyState>
      ) : (
        <ol aria-label={t('schedules.tasks.title')} className="divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800">
          {tasks.map((task, i) => (
            <li
              key={task.id}
              aria-label={t('schedules.tasks.numbered', { n: i + 1, what: taskText(task) })}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
            >
              <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-zinc-800 text-sm text-zinc-300">
                {i + 1}
              </span>
              <div className="min-w-0 flex-1 basis-48">
                <p className="text-zinc-100">
                  <TaskSummary task={task} />
                </p>
                <p className="text-sm text-zinc-400">
                  {offsetWords(task.time_offset, i === 0)}
                  {task.continue_on_failure && (
                    <Badge className="ml-2" tone="info">
                      {t('schedules.tasks.continues')}
                    </Badge>
                  )}
                </p>
              </div>
              {canUpdate && (
                <div className="flex w-full flex-wrap items-center gap-1.5 pl-10 sm:w-auto sm:pl-0">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('schedules.tasks.up', { n: i + 1 })}
                    disabled={i === 0 || move.isPending}
                    onClick={() => moveTo(task, task.sequence_id - 1)}
                  >
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('schedules.tasks.down', { n: i + 1 })}
                    disabled={i === tasks.length - 1 || move.isPending}
                    onClick={() => moveTo(task, task.sequence_id + 1)}
                  >
                    ↓
                  </Button>
                  <Button size="sm" variant="secondary" aria-label={t('schedules.tasks.editNumbered', { n: i + 1 })} onClick={() => setEditing(task)}>
                    {t('schedules.editAction')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('schedules.tasks.deleteNumbered', { n: i + 1 })}
                    className="text-red-300"
                    onClick={() => setDeleting(task)}
                  >
                    {t('schedules.deleteAction')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {canUpdate && (
        <TaskDialog
          server={server}
          scheduleId={schedule.id}
          task={editing === 'new' ? null : editing}
          open={editing !== null}
          onOpenChange={(o) => {
            if (!o) setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title={t('schedules.tasks.delete.title')}
        description={deleting ? t('schedules.tasks.delete.text', { task: taskText(deleting), schedule: schedule.name }) : undefined}
        confirmLabel={t('schedules.deleteAction')}
        danger
        mutation={remove}
        onConfirm={(signal) => (deleting ? remove.mutateAsync({ task: deleting.id, signal }) : undefined)}
      />
    </section>
  );
}
