import type { ComponentType } from 'react';

/*
 * The admin area's pages (root admins; `admin-gate.tsx` keeps everyone else out of this chunk):
 * one table drives the routes and the tabs, as `server-routes.ts` does for a server's pages.
 */
export interface AdminPage {
  /** Path below /admin ('' is the overview). */
  path: string;
  label: string;
  /** Shown as a tab. */
  nav: boolean;
  load: () => Promise<ComponentType>;
}

export const ADMIN_PAGES: AdminPage[] = [
  {
    path: '',
    label: 'Overview',
    nav: true,
    load: () => import('../features/admin-overview/admin-overview-page').then((m) => m.AdminOverviewPage),
  },
  {
    path: 'users',
    label: 'Users',
    nav: true,
    load: () => import('../features/admin-users/admin-users-page').then((m) => m.AdminUsersPage),
  },
  {
    // Under the Users tab: its link stays current (a NavLink matches the paths below it).
    path: 'users/:userId',
    label: 'User',
    nav: false,
    load: () => import('../features/admin-users/admin-user-page').then((m) => m.AdminUserPage),
  },
  {
    path: 'servers',
    label: 'Servers',
    nav: true,
    load: () => import('../features/admin-servers/admin-servers-page').then((m) => m.AdminServersPage),
  },
  {
    path: 'servers/new',
    label: 'Create server',
    nav: false,
    load: () => import('../features/admin-servers/create-server-page').then((m) => m.CreateServerPage),
  },
  {
    path: 'servers/:serverId',
    label: 'Server',
    nav: false,
    load: () => import('../features/admin-servers/admin-server-page').then((m) => m.AdminServerPage),
  },
];

export const adminPageHref = (page: AdminPage): string => (page.path ? `/admin/${page.path}` : '/admin');
