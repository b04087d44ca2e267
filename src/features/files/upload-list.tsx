import { cn } from '../../components/ui/cn';
import { formatBytes } from './format';
import type { UploadItem } from './use-uploads';

/** Per-file upload progress and errors, each with cancel or dismiss. */
export function UploadList({ items, onRemove }: { items: UploadItem[]; onRemove: (id: number) => void }) {
  if (items.length === 0) return null;
  return (
    <section aria-label="Uploads" className="rounded-lg bg-zinc-900 p-3 ring-1 ring-zinc-800">
      <ul className="flex flex-col gap-2">
        {items.map((it) => {
          const pct = Math.round(it.progress * 100);
          return (
            <li key={it.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 text-sm">
              <span className="truncate text-zinc-200" title={it.name}>
                {it.name} <span className="text-zinc-400">· {formatBytes(it.size)}</span>
              </span>
              <button
                type="button"
                onClick={() => onRemove(it.id)}
                className="rounded px-2 py-0.5 text-xs font-medium text-zinc-400 ring-1 ring-inset ring-zinc-700 hover:bg-zinc-800 hover:text-white"
                aria-label={`${it.status === 'uploading' || it.status === 'queued' ? 'Cancel upload of' : 'Dismiss'} ${it.name}`}
              >
                {it.status === 'uploading' || it.status === 'queued' ? 'Cancel' : 'Dismiss'}
              </button>
              {it.status === 'error' ? (
                <p role="alert" className="col-span-2 text-red-400">
                  {it.name}: {it.error}
                </p>
              ) : (
                <div className="col-span-2 flex items-center gap-3">
                  <div
                    role="progressbar"
                    aria-label={`Upload of ${it.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={pct}
                    className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-800"
                  >
                    <div
                      className={cn('h-full rounded-full transition-[width]', it.status === 'done' ? 'bg-emerald-500' : 'bg-sky-500')}
                      style={{ width: `${pct}%` }}
                    />
                  </div>
                  <span className="w-20 text-right text-xs tabular-nums text-zinc-400" aria-live="polite">
                    {it.status === 'queued' ? 'Waiting' : it.status === 'done' ? 'Uploaded' : `${pct}%`}
                  </span>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
