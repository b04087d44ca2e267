import { Spinner } from '../../components/ui/spinner';
import { useT } from './messages';
import type { BackgroundAction } from './use-background-actions';

/** Running copy/compress/decompress jobs, and the failures of those that did not work. */
export function ActionStatus({ actions, onDismiss }: { actions: BackgroundAction[]; onDismiss: (id: number) => void }) {
  const t = useT();
  if (actions.length === 0) return null;
  return (
    <ul aria-label={t('files.background.label')} className="flex flex-col gap-2">
      {actions.map((a) =>
        a.error ? (
          // The live-region role sits inside the item: a role on the <li> itself would break the list.
          <li key={a.id}>
            <div
              role="alert"
              className="flex items-start justify-between gap-3 rounded-md bg-red-950/60 px-3 py-2 text-sm text-red-300 ring-1 ring-inset ring-red-900"
            >
              <span className="min-w-0 break-words">{a.error}</span>
              <button type="button" onClick={() => onDismiss(a.id)} className="shrink-0 rounded text-xs font-medium text-red-200 hover:text-white">
                {t('files.dismiss')}
              </button>
            </div>
          </li>
        ) : (
          <li key={a.id}>
            <div role="status" className="flex items-center gap-2 rounded-md bg-zinc-900 px-3 py-2 text-sm text-zinc-300 ring-1 ring-zinc-800">
              <Spinner className="size-4" label="" />
              <span className="min-w-0 truncate">{a.label}</span>
            </div>
          </li>
        ),
      )}
    </ul>
  );
}
