import { lazy, useEffect, useMemo } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { TabNav } from '../components/ui/tab-nav';
import { ADMIN_PAGES, adminPageHref } from './admin-routes';
import { Boundary } from './bounded-outlet';
import { NotFoundPage } from './not-found-page';
import { pageTitle } from '../lib/panel-name';
import { useT } from './messages';
import { usePageLabel } from './page-label';

const routes: RouteObject[] = [
  ...ADMIN_PAGES.map((p): RouteObject => {
    const Page = lazy(() => p.load().then((Component) => ({ default: Component })));
    return { ...(p.path === '' ? { index: true } : { path: p.path }), element: <Page /> };
  }),
  { path: '*', element: <NotFoundPage level={2} /> },
];

/** The admin area: its tabs over the page the URL names below /admin. */
export function AdminLayout() {
  const t = useT();
  const label = usePageLabel();
  const tabs = useMemo(() => ADMIN_PAGES.filter((p) => p.nav).map((p) => ({ to: adminPageHref(p), label: label(p), end: p.path === '' })), [label]);
  const { pathname } = useLocation();
  const page = useMemo(() => {
    const leaf = matchRoutes(routes, pathname.replace(/^\/admin/, '') || '/')?.at(-1);
    return ADMIN_PAGES.find((p) => (p.path === '' ? leaf?.route.index === true : leaf?.route.path === p.path));
  }, [pathname]);
  useEffect(() => {
    // A user's page titles itself with the user's name.
    if (page?.nav !== false) document.title = pageTitle(page ? label(page) : t('app.notFound'), t('app.admin'));
  }, [page, label, t]);
  const element = useRoutes(routes);
  return (
    <div className="space-y-5">
      <h1 className="text-xl font-semibold text-white">{t('app.admin')}</h1>
      <TabNav items={tabs} label={t('app.admin.sections')} />
      <Boundary>{element}</Boundary>
    </div>
  );
}
