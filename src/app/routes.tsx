import { createBrowserRouter, type RouteObject } from 'react-router';
import { Root } from './root';
import { RequireAuth } from './require-auth';
import { NotFoundPage, RouteErrorPage } from './not-found-page';
import { SERVER_PAGES } from './server-routes';
import { RequireServerPermission } from './require-server-permission';

const serverChildren: RouteObject[] = SERVER_PAGES.map((page) => ({
  ...(page.path === '' ? { index: true } : { path: page.path }),
  lazy: async () => {
    const Page = await page.load();
    return {
      Component: () => (
        <RequireServerPermission permission={page.permission}>
          <Page />
        </RequireServerPermission>
      ),
    };
  },
}));

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/auth/login', lazy: async () => ({ Component: (await import('../features/auth/sign-in-page')).SignInPage }) },
      {
        path: '/auth/login/checkpoint',
        lazy: async () => ({ Component: (await import('../features/auth/checkpoint-page')).CheckpointPage }),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./app-shell')).AppShell }),
            children: [
              { index: true, lazy: async () => ({ Component: (await import('../features/servers/server-list-page')).ServerListPage }) },
              {
                path: '/server/:id',
                lazy: async () => ({ Component: (await import('../features/servers/server-layout')).ServerLayout }),
                children: serverChildren,
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
