import { useT } from './messages';

/** Placeholder rows while the first page loads, shaped like ServerRow so nothing jumps. */
export function ServerListSkeleton({ rows = 4 }: { rows?: number }) {
  const t = useT();
  return (
    <div role="status">
      <ul aria-hidden="true" className="flex flex-col gap-3">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} className="animate-pulse rounded-lg bg-zinc-900 p-4 ring-1 ring-zinc-800">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-6">
              <div className="flex-1 space-y-2.5">
                <div className="h-4 w-40 max-w-full rounded bg-zinc-800" />
                <div className="h-3 w-64 max-w-full rounded bg-zinc-800/70" />
                <div className="h-3 w-48 max-w-full rounded bg-zinc-800/70" />
              </div>
              <div className="h-8 w-56 max-w-full rounded bg-zinc-800/70" />
            </div>
          </li>
        ))}
      </ul>
      <span className="sr-only">{t('servers.list.loading')}</span>
    </div>
  );
}
