import type { ComponentType } from 'react';
import type { AppMessage } from './messages';

/*
 * The admin area's pages (root admins; `admin-gate.tsx` keeps everyone else out of this chunk):
 * one table drives the routes and the tabs, as `server-routes.ts` does for a server's pages.
 */
export interface AdminPage {
  /** Path below /admin ('' is the overview). */
  path: string;
  /** Its name, a message of the app's catalogue (`usePageLabel`). */
  label: AppMessage;
  /** Shown as a tab. */
  nav: boolean;
  load: () => Promise<ComponentType>;
}

export const ADMIN_PAGES: AdminPage[] = [
  {
    path: '',
    label: 'app.admin.overview',
    nav: true,
    load: () => import('../features/admin-overview/admin-overview-page').then((m) => m.AdminOverviewPage),
  },
  {
    path: 'users',
    label: 'app.admin.users',
    nav: true,
    load: () => import('../features/admin-users/admin-users-page').then((m) => m.AdminUsersPage),
  },
  {
    // Under the Users tab: its link stays current (a NavLink matches the paths below it).
    path: 'users/:userId',
    label: 'app.admin.user',
    nav: false,
    load: () => import('../features/admin-users/admin-user-page').then((m) => m.AdminUserPage),
  },
  {
    path: 'servers',
    label: 'app.admin.servers',
    nav: true,
    load: () => import('../features/admin-servers/admin-servers-page').then((m) => m.AdminServersPage),
  },
  {
    path: 'servers/new',
    label: 'app.admin.createServer',
    nav: false,
    load: () => import('../features/admin-servers/create-server-page').then((m) => m.CreateServerPage),
  },
  {
    path: 'servers/:serverId',
    label: 'app.admin.server',
    nav: false,
    load: () => import('../features/admin-servers/admin-server-page').then((m) => m.AdminServerPage),
  },
  {
    path: 'nodes',
    label: 'app.admin.nodes',
    nav: true,
    load: () => import('../features/admin-nodes/admin-nodes-page').then((m) => m.AdminNodesPage),
  },
  {
    // Under the Nodes tab, as a user's page under Users.
    path: 'nodes/:nodeId',
    label: 'app.admin.node',
    nav: false,
    load: () => import('../features/admin-nodes/admin-node-page').then((m) => m.AdminNodePage),
  },
  {
    path: 'locations',
    label: 'app.admin.locations',
    nav: true,
    load: () => import('../features/admin-locations/admin-locations-page').then((m) => m.AdminLocationsPage),
  },
  {
    path: 'eggs',
    label: 'app.admin.eggs',
    nav: true,
    load: () => import('../features/admin-eggs/admin-eggs-page').then((m) => m.AdminEggsPage),
  },
  {
    path: 'eggs/:nestId/:eggId',
    label: 'app.admin.egg',
    nav: false,
    load: () => import('../features/admin-eggs/admin-egg-page').then((m) => m.AdminEggPage),
  },
  {
    path: 'database-hosts',
    label: 'app.admin.databaseHosts',
    nav: true,
    load: () => import('../features/admin-database-hosts/admin-database-hosts-page').then((m) => m.AdminDatabaseHostsPage),
  },
  {
    path: 'api-keys',
    label: 'app.admin.apiKeys',
    nav: true,
    load: () => import('../features/admin-api-keys/admin-api-keys-page').then((m) => m.AdminApiKeysPage),
  },
  {
    path: 'settings',
    label: 'app.admin.settings',
    nav: true,
    load: () => import('../features/admin-settings/admin-settings-page').then((m) => m.AdminSettingsPage),
  },
  {
    path: 'activity',
    label: 'app.admin.activity',
    nav: true,
    load: () => import('../features/activity/activity-page').then((m) => m.AdminActivityPage),
  },
];

export const adminPageHref = (page: AdminPage): string => (page.path ? `/admin/${page.path}` : '/admin');
