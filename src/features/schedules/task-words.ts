import type { ScheduleRun, ScheduleTask } from '../../contract/schedules';
import { t } from './messages';

/*
 * What a task does and when, in words, for the schedule's page and its runs: "Send command
 * `say hi`", "Restart the server", "Create a backup ignoring 2 patterns"; "60 s after the previous
 * task". A command is kept apart from the words so the page can show it as code. The words are
 * in the language being shown at the call.
 */

export interface TaskWords {
  text: string;
  /** The console line of a command task, shown as code after the text. */
  code?: string;
}

const POWER_WORDS = {
  start: 'schedules.task.does.start',
  stop: 'schedules.task.does.stop',
  restart: 'schedules.task.does.restart',
  kill: 'schedules.task.does.kill',
} as const;
type Key = Parameters<typeof t>[0];

/** The words for `value` from a table of message keys, or null when the table has none for it. */
function wordsFor(keys: Record<string, Key>, value: string): string | null {
  return Object.hasOwn(keys, value) ? t(keys[value] as Key) : null;
}

/** The ignored-files payload of a backup task as its patterns (blank lines dropped, as the panel does). */
export const ignoredPatterns = (payload: string) =>
  payload
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

export function taskWords(task: Pick<ScheduleTask, 'action' | 'payload'>): TaskWords {
  switch (task.action) {
    case 'command':
      return { text: t('schedules.task.command'), code: task.payload };
    case 'power':
      return { text: wordsFor(POWER_WORDS, task.payload) ?? t('schedules.task.does.power', { signal: task.payload }) };
    case 'backup':
      return { text: t('schedules.task.does.backup', { count: ignoredPatterns(task.payload).length }) };
    default:
      return { text: t('schedules.task.does.unknown', { action: task.action }) };
  }
}

/** The words as one line (for labels and titles). */
export const taskText = (task: Pick<ScheduleTask, 'action' | 'payload'>) => {
  const w = taskWords(task);
  return w.code === undefined ? w.text : t('schedules.task.commandLine', { command: w.code });
};

/** When a task starts: its offset after the run's start (the first) or after the task before it. */
export function offsetWords(offset: number, first: boolean): string {
  if (offset === 0) return t(first ? 'schedules.task.when.startNow' : 'schedules.task.when.afterNow');
  return t(first ? 'schedules.task.when.start' : 'schedules.task.when.after', { offset });
}

/** What a backup task will do at this server's limit, or that it cannot be saved at all. */
export function backupLimitWords(limit: number | null): string {
  // The panel refuses a backup task unless the limit is above 0 (a missing limit included).
  if (limit === null || limit <= 0) return t('schedules.task.backupsOff');
  return t('schedules.task.backupLimit', { limit });
}

const TRIGGER_WORDS = {
  cron: 'schedules.run.trigger.cron',
  manual: 'schedules.runNow',
  missed: 'schedules.run.trigger.missed',
} as const satisfies Record<ScheduleRun['trigger'], string>;

/** A run's part in a sentence: what started it. */
export const triggerWords = (trigger: ScheduleRun['trigger']) => t(TRIGGER_WORDS[trigger]);

const OUTCOME_WORDS = {
  waiting: 'schedules.outcome.waiting',
  running: 'schedules.outcome.running',
  done: 'schedules.outcome.done',
  failed: 'schedules.outcome.failed',
  skipped: 'schedules.outcome.skipped',
  interrupted: 'schedules.outcome.interrupted',
} as const;

/** A run's outcome or a task's state in a word ("done", "skipped"); one the SPA does not know, as sent. */
export const outcomeWord = (outcome: string) => wordsFor(OUTCOME_WORDS, outcome) ?? outcome;
