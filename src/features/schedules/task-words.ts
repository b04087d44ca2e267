import type { ScheduleRun, ScheduleTask } from '../../contract/schedules';

/*
 * What a task does and when, in words, for the schedule's page and its runs: "Send command
 * `say hi`", "Restart the server", "Create a backup ignoring 2 patterns"; "60 s after the previous
 * task". A command is kept apart from the words so the page can show it as code.
 */

export interface TaskWords {
  text: string;
  /** The console line of a command task, shown as code after the text. */
  code?: string;
}

const POWER_WORDS: Record<string, string> = {
  start: 'Start the server',
  stop: 'Stop the server',
  restart: 'Restart the server',
  kill: 'Kill the server (stop it at once)',
};

/** The ignored-files payload of a backup task as its patterns (blank lines dropped, as the panel does). */
export const ignoredPatterns = (payload: string) =>
  payload
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

export function taskWords(task: Pick<ScheduleTask, 'action' | 'payload'>): TaskWords {
  switch (task.action) {
    case 'command':
      return { text: 'Send command', code: task.payload };
    case 'power':
      return { text: POWER_WORDS[task.payload] ?? `Send the power action “${task.payload}”` };
    case 'backup': {
      const n = ignoredPatterns(task.payload).length;
      return { text: n === 0 ? 'Create a backup' : `Create a backup ignoring ${n} ${n === 1 ? 'pattern' : 'patterns'}` };
    }
    default:
      return { text: `Unknown action “${task.action}”` };
  }
}

/** The words as one line (for labels and titles). */
export const taskText = (task: Pick<ScheduleTask, 'action' | 'payload'>) => {
  const w = taskWords(task);
  return w.code === undefined ? w.text : `${w.text} \`${w.code}\``;
};

/** When a task starts: its offset after the run's start (the first) or after the task before it. */
export function offsetWords(offset: number, first: boolean): string {
  if (offset === 0) return first ? 'As soon as the run starts' : 'Right after the previous task';
  return `${offset} s after ${first ? 'the run starts' : 'the previous task'}`;
}

/** What a backup task will do at this server's limit, or that it cannot be saved at all. */
export function backupLimitWords(limit: number | null): string {
  // The panel refuses a backup task unless the limit is above 0 (a missing limit included).
  if (limit === null || limit <= 0) return 'Backups are disabled for this server (its backup limit is 0), so a backup task cannot be saved.';
  return `This server may keep ${limit} ${limit === 1 ? 'backup' : 'backups'}; at the limit the oldest unlocked one is removed first.`;
}

/** A run's part in a sentence: what started it. */
export const TRIGGER_WORDS: Record<ScheduleRun['trigger'], string> = {
  cron: 'Scheduled',
  manual: 'Run now',
  missed: 'Missed, run at start',
};
