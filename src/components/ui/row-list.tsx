import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../messages';
import { Button } from './button';
import { cn } from './cn';

/** A list's rows in one panel; `busy` while a page or search is loading over the shown one. */
export function RowList({ label, busy, className, children }: { label: string; busy?: boolean; className?: string; children: ReactNode }) {
  return (
    <ul
      aria-label={label}
      aria-busy={busy || undefined}
      className={cn('divide-y divide-zinc-800/80 rounded-lg bg-zinc-900/60 ring-1 ring-zinc-800', busy && 'opacity-60', className)}
    >
      {children}
    </ul>
  );
}

export interface ListRowProps {
  title: ReactNode;
  /** The row's page: the whole row is the link's target, and only the title is announced. */
  to?: string;
  /** The row's name when it has no link (its buttons say what they act on). */
  label?: string;
  /** Lines under the title. */
  details?: ReactNode;
  /** Right of the text (below it when narrow): badges, the row's buttons. */
  children?: ReactNode;
}

/** One row of a `RowList`: a title, either a link to the row's page or plain text, what it says under it, and what sits beside. */
export function ListRow({ title, to, label, details, children }: ListRowProps) {
  return (
    <li aria-label={label} className={cn('flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3', to && 'relative hover:bg-zinc-800/40')}>
      <div className="min-w-0 flex-1 basis-48 space-y-1">
        {to ? (
          <Link
            to={to}
            className="font-medium break-all text-zinc-100 after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-sky-500"
          >
            <bdi>{title}</bdi>
          </Link>
        ) : (
          <p className="font-medium break-words text-zinc-100">
            <bdi>{title}</bdi>
          </p>
        )}
        {details}
      </div>
      {children}
    </li>
  );
}

export interface RowAction {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** The button's name when "<label> <row>" does not read well ("Test connection to main"). */
  name?: string;
}

/** A row's buttons (Edit, Delete…), each named with the row it acts on ("Edit eu"). */
export function RowActions({ of, actions }: { of: string; actions: readonly RowAction[] }) {
  const t = useT();
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map((a) => (
        <Button
          key={a.label}
          size="sm"
          variant="secondary"
          disabled={a.disabled}
          onClick={a.onClick}
          aria-label={a.name ?? t('ui.rowAction', { action: a.label, row: of })}
        >
          {a.label}
        </Button>
      ))}
    </div>
  );
}
