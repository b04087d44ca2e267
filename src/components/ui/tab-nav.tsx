import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { cn } from './cn';

export interface TabNavItem {
  to: string;
  label: string;
  /** Active only on an exact match (an index page). */
  end?: boolean;
  /** Marks the tab current whatever the URL says (a page that belongs under this tab). */
  current?: boolean;
}

const tabClass = (active: boolean) =>
  cn(
    '-mb-px inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium whitespace-nowrap transition-colors focus-visible:rounded-t-md focus-visible:outline-offset-[-2px]',
    active ? 'border-sky-400 text-white' : 'border-transparent text-zinc-400 hover:border-zinc-600 hover:text-zinc-200',
  );

/**
 * Page navigation styled as tabs: plain links (the current one has aria-current="page"), one row
 * that scrolls sideways on narrow screens instead of wrapping or hiding entries. `trailing` sits at
 * the end of the row (after the last tab).
 */
export function TabNav({ items, label, trailing }: { items: readonly TabNavItem[]; label: string; trailing?: ReactNode }) {
  return (
    <nav aria-label={label} className="-mx-4 flex min-w-0 items-center overflow-x-auto border-b border-zinc-800 px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1">
        {items.map((item) => (
          <li key={item.to}>
            {item.current ? (
              <Link to={item.to} aria-current="page" className={tabClass(true)}>
                {item.label}
              </Link>
            ) : (
              <NavLink to={item.to} end={item.end} className={({ isActive }) => tabClass(isActive)}>
                {item.label}
              </NavLink>
            )}
          </li>
        ))}
      </ul>
      {trailing}
    </nav>
  );
}
