import { useMemo } from 'react';
import { matchPath, useLocation } from 'react-router';
import { permits } from '../../contract/permissions';
import { SERVER_PAGES, serverPageHref } from '../../app/server-routes';
import { TabNav } from '../../components/ui/tab-nav';

/** The server's pages the user may open: the same table and permission strings the route guard uses. */
export function ServerNav({ serverId, permissions }: { serverId: string; permissions: readonly string[] }) {
  const { pathname } = useLocation();
  // A page outside the navigation (the editor) keeps the tab it belongs under marked.
  const under = SERVER_PAGES.find((p) => p.navUnder && matchPath({ path: `/server/:id/${p.path}`, end: true }, pathname))?.navUnder;
  const items = useMemo(
    () =>
      SERVER_PAGES.filter((page) => page.nav && (page.permission === null || permits(permissions, page.permission))).map((page) => ({
        to: serverPageHref(serverId, page),
        label: page.label,
        end: page.path === '',
        current: under !== undefined && page.path === under,
      })),
    [serverId, permissions, under],
  );
  return <TabNav items={items} label="Server" />;
}
