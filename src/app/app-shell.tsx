import { Link, NavLink } from 'react-router';
import { cn } from '../components/ui/cn';
import { BoundedOutlet } from './bounded-outlet';
import { AccountMenu } from '../features/auth/account-menu';
import { PaletteHost } from '../features/palette/palette-host';
import { useAccount } from './require-auth';
import { usePanelName } from '../lib/panel-name';
import { useT } from './messages';

/** The frame of every signed-in page: skip link, header with the account menu, content. */
export function AppShell() {
  const account = useAccount();
  const panelName = usePanelName();
  const t = useT();
  return (
    <div className="flex min-h-full flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-sky-700 focus:px-3 focus:py-2 focus:text-always-white"
      >
        {t('app.skip')}
      </a>
      <header className="sticky top-0 z-30 border-b border-zinc-800 bg-zinc-950/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 font-semibold text-white">
            <img src="/favicon.svg" alt="" className="size-7 shrink-0" />
            <span className="max-w-[8rem] truncate sm:max-w-xs" title={panelName}>
              {panelName}
            </span>
          </Link>
          <div className="flex min-w-0 items-center gap-2">
            <PaletteHost />
            {account.admin && (
              <NavLink
                to="/admin"
                className={({ isActive }) =>
                  cn(
                    'inline-flex min-h-9 shrink-0 items-center rounded-md px-3 text-sm font-medium',
                    isActive ? 'bg-zinc-800 text-white' : 'text-zinc-300 hover:bg-zinc-800 hover:text-white',
                  )
                }
              >
                {t('app.admin')}
              </NavLink>
            )}
            <AccountMenu />
          </div>
        </div>
      </header>
      {/* Focusable from the skip link (so the next Tab starts inside it in every browser), never a Tab stop. */}
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none">
        <BoundedOutlet />
      </main>
    </div>
  );
}
