import { lazy, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { Boundary } from './bounded-outlet';
import { Root } from './root';
import { RequireAuth } from './require-auth';
import { NotFoundPage } from './not-found-page';
import { SERVER_PAGES } from './server-routes';
import { RequireServerPermission } from './require-server-permission';

/*
 * The route table. A plain <BrowserRouter> with lazy pages rather than a data router: the data
 * router alone is ~16 KB gzip more on every page, and the app loads its data with TanStack Query,
 * not route loaders. Navigations run in transitions, so the page on screen stays until the next
 * page's code has arrived.
 */

function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType) {
  return lazy(() => load().then((m) => ({ default: pick(m) })));
}

const SignInPage = page(
  () => import('../features/auth/sign-in-page'),
  (m) => m.SignInPage,
);
const CheckpointPage = page(
  () => import('../features/auth/checkpoint-page'),
  (m) => m.CheckpointPage,
);
const AppShell = page(
  () => import('./app-shell'),
  (m) => m.AppShell,
);
const ServerListPage = page(
  () => import('../features/servers/server-list-page'),
  (m) => m.ServerListPage,
);
const ServerLayout = page(
  () => import('../features/servers/server-layout'),
  (m) => m.ServerLayout,
);

const serverChildren: RouteObject[] = SERVER_PAGES.map((p) => {
  const Page = lazy(() => p.load().then((Component) => ({ default: Component })));
  return {
    ...(p.path === '' ? { index: true } : { path: p.path }),
    element: (
      <RequireServerPermission permission={p.permission}>
        <Page />
      </RequireServerPermission>
    ),
  };
});

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/auth/login', element: <SignInPage /> },
      { path: '/auth/login/checkpoint', element: <CheckpointPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppShell />,
            children: [
              { index: true, element: <ServerListPage /> },
              { path: '/server/:id', element: <ServerLayout />, children: serverChildren },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export function AppRoutes() {
  return <Boundary>{useRoutes(routes)}</Boundary>;
}
