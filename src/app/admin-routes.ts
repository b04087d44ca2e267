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
  {
    path: 'nodes',
    label: 'Nodes',
    nav: true,
    load: () => import('../features/admin-nodes/admin-nodes-page').then((m) => m.AdminNodesPage),
  },
  {
    // Under the Nodes tab, as a user's page under Users.
    path: 'nodes/:nodeId',
    label: 'Node',
    nav: false,
    load: () => import('../features/admin-nodes/admin-node-page').then((m) => m.AdminNodePage),
  },
  {
    path: 'locations',
    label: 'Locations',
    nav: true,
    load: () => import('../features/admin-locations/admin-locations-page').then((m) => m.AdminLocationsPage),
  },
  {
    path: 'eggs',
    label: 'Eggs',
    nav: true,
    load: () => import('../features/admin-eggs/admin-eggs-page').then((m) => m.AdminEggsPage),
  },
  {
    path: 'eggs/:nestId/:eggId',
    label: 'Egg',
    nav: false,
    load: () => import('../features/admin-eggs/admin-egg-page').then((m) => m.AdminEggPage),
  },
  {
    path: 'database-hosts',
    label: 'Database hosts',
    nav: true,
    load: () => import('../features/admin-database-hosts/admin-database-hosts-page').then((m) => m.AdminDatabaseHostsPage),
  },
  {
    path: 'api-keys',
    label: 'API keys',
    nav: true,
    load: () => import('../features/admin-api-keys/admin-api-keys-page').then((m) => m.AdminApiKeysPage),
  },
  {
    path: 'settings',
    label: 'Settings',
    nav: true,
    load: () => import('../features/admin-settings/admin-settings-page').then((m) => m.AdminSettingsPage),
  },
  {
    path: 'activity',
    label: 'Activity',
    nav: true,
    load: () => import('../features/activity/activity-page').then((m) => m.AdminActivityPage),
  },
];

export const adminPageHref = (page: AdminPage): string => (page.path ? `/admin/${page.path}` : '/admin');
