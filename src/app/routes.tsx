import { lazy, useMemo, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { Boundary } from './bounded-outlet';
import { Root } from './root';
import { RequireAuth } from './require-auth';
import { NotFoundPage } from './not-found-page';
import { SERVER_PAGES } from './server-routes';
import { AdminGate } from './admin-gate';

/*
 * The route table. A plain <BrowserRouter> with lazy pages rather than a data router: the data
 * router alone is ~16 KB gzip more on every page, and the app loads its data with TanStack Query,
 * not route loaders. Navigations run in transitions, so the page on screen stays until the next
 * page's code has arrived.
 */

/** A lazy page, and the route fields that let AppRoutes start its download early. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): Pick<RouteObject, 'element' | 'handle'> {
  const Page = lazy(() => load().then((m) => ({ default: pick(m) })));
  return { element: <Page />, handle: { preload: load } };
}

const SignInPage = page(
  () => import('../features/auth/sign-in-page'),
  (m) => m.SignInPage,
);
const CheckpointPage = page(
  () => import('../features/auth/checkpoint-page'),
  (m) => m.CheckpointPage,
);
const ForgotPasswordPage = page(
  () => import('../features/auth/forgot-password-page'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = page(
  () => import('../features/auth/reset-password-page'),
  (m) => m.ResetPasswordPage,
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

const AccountLayout = page(
  () => import('../features/account/account-layout'),
  (m) => m.AccountLayout,
);
const accountChildren: RouteObject[] = [
  {
    index: true,
    ...page(
      () => import('../features/account/profile-section'),
      (m) => m.ProfileSection,
    ),
  },
  {
    path: 'password',
    ...page(
      () => import('../features/account/password-section'),
      (m) => m.PasswordSection,
    ),
  },
  {
    path: 'two-factor',
    ...page(
      () => import('../features/account/two-factor-section'),
      (m) => m.TwoFactorSection,
    ),
  },
  {
    path: 'api-keys',
    ...page(
      () => import('../features/account/api-keys-section'),
      (m) => m.ApiKeysSection,
    ),
  },
  {
    path: 'ssh-keys',
    ...page(
      () => import('../features/account/ssh-keys-section'),
      (m) => m.SshKeysSection,
    ),
  },
  {
    path: 'appearance',
    ...page(
      () => import('../features/account/appearance-section'),
      (m) => m.AppearanceSection,
    ),
  },
  {
    path: 'activity',
    ...page(
      () => import('../features/activity/activity-page'),
      (m) => m.AccountActivityPage,
    ),
  },
];

const serverChildren: RouteObject[] = SERVER_PAGES.map((p) => {
  const Page = lazy(() => p.load().then((Component) => ({ default: Component })));
  return {
    ...(p.path === '' ? { index: true } : { path: p.path }),
    // The server layout guards it with `p.permission` (that code stays out of the sign-in page).
    element: <Page />,
    handle: { preload: p.load },
  };
});

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/auth/login', ...SignInPage },
      { path: '/auth/login/checkpoint', ...CheckpointPage },
      { path: '/auth/password', ...ForgotPasswordPage },
      { path: '/auth/password/reset/:token', ...ResetPasswordPage },
      {
        element: <RequireAuth />,
        children: [
          {
            ...AppShell,
            children: [
              { index: true, ...ServerListPage },
              { path: '/server/:id', ...ServerLayout, children: serverChildren },
              { path: '/account', ...AccountLayout, children: accountChildren },
              // No preload handle: a regular user opening /admin must fetch no admin code.
              { path: '/admin/*', element: <AdminGate /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];

function preloadOf(handle: unknown): (() => Promise<unknown>) | null {
  if (typeof handle !== 'object' || handle === null || !('preload' in handle) || typeof handle.preload !== 'function') return null;
  return handle.preload as () => Promise<unknown>;
}

export function AppRoutes() {
  const { pathname } = useLocation();
  // Every page a URL needs (shell, layout, page) downloads at once, not one after the other as
  // each lazy component renders: what a data router's `lazy` routes did.
  useMemo(() => {
    for (const match of matchRoutes(routes, pathname) ?? []) void preloadOf(match.route.handle)?.()?.catch(() => undefined);
  }, [pathname]);
  return <Boundary>{useRoutes(routes)}</Boundary>;
}
