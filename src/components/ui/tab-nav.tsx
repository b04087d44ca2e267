import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
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

/** Which ends of the row have tabs scrolled out of sight. */
type Overflow = 'start' | 'end' | 'both' | null;

/** How wide the fade at an end with more tabs is, in px (2rem); the current tab is kept clear of it. */
const FADE_PX = 32;

// The fade at each end that has more: a cut-off tab alone does not say the row scrolls.
const fadeClass =
  'data-[overflow=start]:[mask-image:linear-gradient(to_right,transparent,#000_2rem)] ' +
  'data-[overflow=end]:[mask-image:linear-gradient(to_left,transparent,#000_2rem)] ' +
  'data-[overflow=both]:[mask-image:linear-gradient(to_right,transparent,#000_2rem,#000_calc(100%-2rem),transparent)]';

function overflowOf(el: HTMLElement): Overflow {
  const start = el.scrollLeft > 1;
  const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
  return start && end ? 'both' : start ? 'start' : end ? 'end' : null;
}

/**
 * Page navigation styled as tabs: plain links (the current one has aria-current="page"), one row
 * that scrolls sideways on narrow screens instead of wrapping or hiding entries, fading at an end
 * that has more and scrolled to show the current tab. `trailing` sits at the end of the row (after
 * the last tab).
 */
export function TabNav({ items, label, trailing }: { items: readonly TabNavItem[]; label: string; trailing?: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const [overflow, setOverflow] = useState<Overflow>(null);

  useEffect(() => {
    const nav = ref.current;
    if (!nav) return;
    const update = () => setOverflow(overflowOf(nav));
    update();
    nav.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(nav);
    return () => {
      nav.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [items, trailing]);

  // The current tab in view when a page opens, clear of the fades (the scroll event updates them).
  useLayoutEffect(() => {
    const nav = ref.current;
    const tab = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !tab) return;
    const row = nav.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    if (box.right > row.right - FADE_PX) nav.scrollLeft += box.right - row.right + FADE_PX;
    else if (box.left < row.left + FADE_PX) nav.scrollLeft -= row.left + FADE_PX - box.left;
  }, [pathname]);

  return (
    <nav
      ref={ref}
      aria-label={label}
      data-overflow={overflow ?? undefined}
      className={cn('-mx-4 flex min-w-0 items-center overflow-x-auto border-b border-zinc-800 px-4 sm:mx-0 sm:px-0', fadeClass)}
    >
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
