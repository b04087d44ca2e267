import type { ComponentType } from 'react';
import type { AppMessage } from './messages';
import type { PermissionCheck } from '../contract/permissions';
import type { Server } from '../contract/servers';

/**
 * The server pages: one table drives the routes, the navigation and the permission guard.
 * `permission` is a subuser permission string (`group.*` = any
 * of the group); null means every member may open it.
 */
export interface ServerPage {
  /** Path below /server/:id ('' is the landing page, the console). */
  path: string;
  /** Its name, a message of the app's catalogue (`usePageLabel`). */
  label: AppMessage;
  permission: PermissionCheck | null;
  /** Shown in the server navigation. */
  nav: boolean;
  /** For a page outside the navigation: the path of the tab it belongs under (marked current while it shows). */
  navUnder?: string;
  /**
   * The page works on an unavailable server (suspended, installing…) and says itself what is
   * unavailable. Any other page would only get 409s then: the layout shows ServerUnavailable instead.
   */
  worksUnavailable?: true | ((server: Server) => boolean);
  /** The page titles the document itself (with what it shows, e.g. a schedule's name). */
  titledByPage?: true;
  load: () => Promise<ComponentType>;
}

export const SERVER_PAGES: ServerPage[] = [
  {
    // Every member may open it: without websocket.connect it says why there is no console.
    path: '',
    worksUnavailable: true,
    label: 'app.server.console',
    permission: null,
    nav: true,
    load: () => import('../features/console/console-page').then((m) => m.ConsolePage),
  },
  {
    path: 'overview',
    worksUnavailable: true,
    label: 'app.server.overview',
    permission: null,
    nav: true,
    load: () => import('../features/servers/server-overview-page').then((m) => m.ServerOverviewPage),
  },
  {
    path: 'files/*',
    worksUnavailable: true,
    label: 'app.server.files',
    permission: 'file.read',
    nav: true,
    load: () => import('../features/files/file-manager-page').then((m) => m.FileManagerPage),
  },
  {
    path: 'file/*',
    worksUnavailable: true,
    label: 'app.server.editFile',
    permission: 'file.read-content',
    nav: false,
    navUnder: 'files/*',
    load: () => import('../features/files/file-editor-page').then((m) => m.FileEditorPage),
  },
  {
    path: 'databases',
    label: 'app.server.databases',
    permission: 'database.read',
    nav: true,
    load: () => import('../features/databases/databases-page').then((m) => m.DatabasesPage),
  },
  {
    path: 'network',
    label: 'app.server.network',
    permission: 'allocation.read',
    nav: true,
    load: () => import('../features/network/network-page').then((m) => m.NetworkPage),
  },
  {
    path: 'startup',
    label: 'app.server.startup',
    permission: 'startup.read',
    nav: true,
    load: () => import('../features/startup/startup-page').then((m) => m.StartupPage),
  },
  {
    path: 'users',
    label: 'app.server.users',
    permission: 'user.read',
    nav: true,
    load: () => import('../features/subusers/subusers-page').then((m) => m.SubusersPage),
  },
  {
    path: 'backups',
    // During a restore it keeps the last list read and shows the restore's progress; in any other
    // unavailable state its list would be refused.
    worksUnavailable: (server) => server.status === 'restoring_backup',
    label: 'app.server.backups',
    permission: 'backup.read',
    nav: true,
    load: () => import('../features/backups/backups-page').then((m) => m.BackupsPage),
  },
  {
    path: 'schedules',
    label: 'app.server.schedules',
    permission: 'schedule.read',
    nav: true,
    load: () => import('../features/schedules/schedules-page').then((m) => m.SchedulesPage),
  },
  {
    path: 'schedules/:scheduleId',
    label: 'app.server.schedule',
    permission: 'schedule.read',
    nav: false,
    navUnder: 'schedules',
    titledByPage: true,
    load: () => import('../features/schedules/schedule-page').then((m) => m.SchedulePage),
  },
  {
    path: 'settings',
    worksUnavailable: true,
    label: 'app.server.settings',
    permission: 'settings.*',
    nav: true,
    load: () => import('../features/servers/server-settings-page').then((m) => m.ServerSettingsPage),
  },
  {
    path: 'activity',
    label: 'app.server.activity',
    permission: 'activity.read',
    nav: true,
    load: () => import('../features/activity/activity-page').then((m) => m.ActivityPage),
  },
];

/** The link target of a page (without the `/*` splat). */
export function serverPageHref(serverId: string, page: ServerPage): string {
  const base = page.path.replace(/\/\*$/, '');
  return base ? `/server/${serverId}/${base}` : `/server/${serverId}`;
}
