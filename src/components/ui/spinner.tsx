import { useT } from '../messages';
import { cn } from './cn';

/** `label=""` for a spinner whose meaning is said beside it (a busy button). */
export function Spinner({ className, label: given }: { className?: string; label?: string }) {
  const t = useT();
  const label = given ?? t('ui.loading');
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center gap-2 text-zinc-400">
      <svg className={cn('size-5 animate-spin', className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-25" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      {label && <span className="text-sm">{label}</span>}
    </span>
  );
}

export function PageSpinner() {
  return (
    <div className="flex min-h-48 items-center justify-center">
      <Spinner />
    </div>
  );
}
