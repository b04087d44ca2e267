import { useT } from '../messages';
import { Spinner } from './spinner';
import { cn } from './cn';

export type OperationStatus = 'queued' | 'running' | 'done' | 'error';

/** One background operation: an upload, a backup, a restore… */
export interface Operation {
  id: string | number;
  /** What it is about: a file name, "Backup nightly". */
  title: string;
  /** Shown dimmed after the title (a size). */
  detail?: string;
  status: OperationStatus;
  /** 0..1 where the work reports it; without it a running operation shows a spinner. */
  progress?: number;
  /** Names the progress bar (with `progress`): "Upload of world.zip". */
  progressLabel?: string;
  /** The state in words beside the bar: "Waiting", "42%", "Uploaded", "Running". */
  statusText: string;
  /** For `error` (and a `done` that needs saying, such as a failed backup): the message. */
  message?: string;
  /** Cancel or dismiss. */
  action?: { label: string; ariaLabel: string; onClick: () => void };
}

/**
 * Runs a row's action; when that takes the row away (a dismiss), focus goes to the next row's
 * action, else the previous one's, else the page's main region, rather than to <body>.
 */
function actAndKeepFocus(button: HTMLButtonElement, action: () => void) {
  const all = [...(button.closest('section')?.querySelectorAll<HTMLButtonElement>('[data-operation-action]') ?? [])];
  const at = all.indexOf(button);
  const neighbours = [...all.slice(at + 1), ...all.slice(0, at).reverse()];
  action();
  setTimeout(() => {
    if (button.isConnected) return;
    (neighbours.find((b) => b.isConnected) ?? document.getElementById('main'))?.focus();
  });
}

/**
 * Background operations with their state (the file manager's uploads, the backups page's backups
 * and restores): a bar where progress is known, a spinner where it is not, the error when one
 * fails, and cancel or dismiss per row.
 */
export function OperationsTray({ label, operations }: { label: string; operations: Operation[] }) {
  const t = useT();
  if (operations.length === 0) return null;
  return (
    <section aria-label={label} className="rounded-lg bg-zinc-900 p-3 ring-1 ring-zinc-800">
      <ul className="flex flex-col gap-2">
        {operations.map(({ action, ...op }) => (
          <li key={op.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 text-sm">
            <span className="truncate text-zinc-200" title={op.title}>
              {op.title} {op.detail && <span className="text-zinc-400">· {op.detail}</span>}
            </span>
            {action ? (
              <button
                type="button"
                data-operation-action=""
                onClick={(event) => actAndKeepFocus(event.currentTarget, action.onClick)}
                className="rounded px-2 py-0.5 text-xs font-medium text-zinc-400 ring-1 ring-inset ring-zinc-700 hover:bg-zinc-800 hover:text-white"
                aria-label={action.ariaLabel}
              >
                {action.label}
              </button>
            ) : (
              <span />
            )}
            {op.status === 'error' ? (
              <p role="alert" className="col-span-2 text-red-400">
                {t('ui.operation.failed', { title: op.title, message: op.message })}
              </p>
            ) : (
              <div className="col-span-2 flex items-center gap-3">
                {op.progress !== undefined ? (
                  <ProgressBar label={op.progressLabel ?? op.title} progress={op.progress} done={op.status === 'done'} />
                ) : op.status === 'running' ? (
                  // Progress not known: an indeterminate bar (no value), its state in the words beside it.
                  <span role="progressbar" aria-label={op.progressLabel ?? op.title} aria-valuetext={op.statusText} className="flex-1">
                    <Spinner className="size-4" label="" />
                  </span>
                ) : (
                  <span className="flex-1 text-xs text-zinc-400">{op.message}</span>
                )}
                <span className="min-w-20 text-right text-xs tabular-nums text-zinc-400" aria-live="polite">
                  {op.statusText}
                </span>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProgressBar({ label, progress, done }: { label: string; progress: number; done: boolean }) {
  const pct = Math.round(progress * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-800"
    >
      <div className={cn('h-full rounded-full transition-[width]', done ? 'bg-emerald-500' : 'bg-sky-500')} style={{ width: `${pct}%` }} />
    </div>
  );
}
