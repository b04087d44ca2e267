import { useId, type ReactNode } from 'react';
import { cn } from './cn';

/**
 * A titled panel: a region named by its heading, with optional actions beside the title. With an
 * `id` it is a target that a jump can focus (not a Tab stop).
 */
export function Card({
  title,
  actions,
  children,
  className,
  id,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = useId();
  return (
    <section
      id={id}
      tabIndex={id ? -1 : undefined}
      aria-labelledby={headingId}
      className={cn('min-w-0 rounded-lg bg-zinc-900/70 p-4 ring-1 ring-zinc-800 focus:outline-none focus-visible:ring-sky-500 sm:p-5', className)}
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold tracking-wide text-zinc-200 uppercase">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A term/value list inside a card; values wrap instead of overflowing narrow screens. */
export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('divide-y divide-zinc-800/80', className)}>{children}</dl>;
}

/**
 * One term and its value. Plain values sit beside their term even on phones; a value with an
 * action (a copy button) goes below its term there, so long ids keep room to wrap. A term longer
 * than its column (German compounds such as "Installationsskript") is hyphenated or broken
 * rather than running into its value.
 */
export function DetailItem({ term, children, action }: { term: ReactNode; children: ReactNode; action?: ReactNode }) {
  return (
    <div
      className={cn(
        'flex gap-x-3 gap-y-1 py-2 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:gap-4',
        action ? 'flex-col' : 'flex-row items-baseline',
      )}
    >
      <dt className="w-28 shrink-0 text-sm break-words hyphens-auto text-zinc-400 sm:w-36">{term}</dt>
      <dd className="flex min-w-0 flex-1 items-start justify-between gap-2 text-sm text-zinc-100">
        <div className="min-w-0 break-words">{children}</div>
        {action && <div className="shrink-0">{action}</div>}
      </dd>
    </div>
  );
}
