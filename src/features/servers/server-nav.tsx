import { useId, useMemo, useState } from 'react';
import { matchPath, useLocation } from 'react-router';
import { permits } from '../../contract/permissions';
import { SERVER_PAGES, serverPageHref } from '../../app/server-routes';
import { TabNav } from '../../components/ui/tab-nav';
import { PermissionHint } from '../../lib/permissions';
import { usePageLabel } from '../../app/page-label';

/**
 * The server's pages the user may open: the same table and permission strings the route guard uses.
 * The pages a subuser may not open are not links; a disclosure at the end of the row names each one
 * and the permission it needs.
 */
export function ServerNav({ serverId, permissions }: { serverId: string; permissions: readonly string[] }) {
  const { pathname } = useLocation();
  // Open on the page it was opened on: following a link closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const panelId = useId();
  // A page outside the navigation (the editor) keeps the tab it belongs under marked.
  const under = SERVER_PAGES.find((p) => p.navUnder && matchPath({ path: `/server/:id/${p.path}`, end: true }, pathname))?.navUnder;
  const pageLabel = usePageLabel();
  const allowed = (page: (typeof SERVER_PAGES)[number]) => page.permission === null || permits(permissions, page.permission);
  const items = useMemo(
    () =>
      SERVER_PAGES.filter((page) => page.nav && allowed(page)).map((page) => ({
        to: serverPageHref(serverId, page),
        label: pageLabel(page),
        end: page.path === '',
        current: under !== undefined && page.path === under,
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `allowed` reads only `permissions`
    [serverId, permissions, under, pageLabel],
  );
  const hidden = SERVER_PAGES.filter((page) => page.nav && !allowed(page));

  const toggle = hidden.length > 0 && (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={panelId}
      onClick={() => setOpenAt(open ? null : pathname)}
      className="ml-auto inline-flex min-h-11 shrink-0 items-center gap-1 px-3 text-xs whitespace-nowrap text-zinc-500 hover:text-zinc-300 focus-visible:rounded-md focus-visible:outline-offset-[-2px]"
    >
      {hidden.length} more {hidden.length === 1 ? 'page' : 'pages'}
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className={open ? 'size-3.5 rotate-180' : 'size-3.5'}>
        <path
          fillRule="evenodd"
          d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z"
          clipRule="evenodd"
        />
      </svg>
    </button>
  );

  return (
    <div>
      <TabNav items={items} label="Server" trailing={toggle} />
      {hidden.length > 0 && (
        <section
          id={panelId}
          hidden={!open}
          aria-label="Pages you cannot open"
          className="mt-2 rounded-md bg-zinc-900/60 px-3 py-2 ring-1 ring-zinc-800"
        >
          <p className="text-xs text-zinc-400">Your account cannot open these pages; the server owner can grant the permissions they need.</p>
          <ul className="mt-1.5 space-y-1">
            {hidden.map((page) => (
              <li key={page.path} className="grid grid-cols-[6rem_1fr] items-baseline gap-x-2 text-sm">
                <span className="text-zinc-300">{pageLabel(page)}</span>
                {page.permission && <PermissionHint permission={page.permission} />}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
