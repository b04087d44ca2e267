import type { FastifyInstance } from 'fastify';
import { accountEndpoints, PERMISSION_GROUPS, THEMES, type Permission, type PermissionGroup } from '../../src/contract';
import { clientRoute } from '../http/routes';

/** The signed-in account and the permission catalogue the subuser editor shows. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  await clientRoute(
    app,
    accountEndpoints.me,
  )(async ({ caller: { user } }) => ({
    object: 'user',
    attributes: {
      id: user.id,
      admin: user.root_admin === 1,
      username: user.username,
      email: user.email,
      first_name: user.name_first,
      last_name: user.name_last,
      language: user.language,
      use_totp: user.use_totp === 1,
      theme: THEMES.find((theme) => theme === user.theme) ?? 'system',
    },
  }));

  await clientRoute(
    app,
    accountEndpoints.permissions,
  )(async () => ({
    object: 'system_permissions',
    attributes: { permissions: permissionCatalogue() },
  }));
}

const GROUP_DESCRIPTIONS: Record<PermissionGroup, string> = {
  websocket: 'Access to the live console and status stream of the server.',
  control: 'Control the server: send console commands and change its power state.',
  user: 'Manage the subusers of this server.',
  file: 'Work with the files of this server.',
  backup: 'Manage the backups of this server.',
  allocation: 'Manage the network allocations (IP addresses and ports) of this server.',
  startup: 'View and change the startup settings of this server.',
  database: 'Manage the databases of this server.',
  schedule: 'Manage the schedules of this server.',
  settings: 'Change the general settings of this server.',
  activity: 'Read the activity log of this server.',
};

const KEY_DESCRIPTIONS: Record<Permission, string> = {
  'websocket.connect': 'Connect to the server console and live statistics.',
  'control.console': 'Send commands to the server console.',
  'control.start': 'Start the server when it is stopped.',
  'control.stop': 'Stop the server when it is running.',
  'control.restart': 'Restart the server.',
  'user.create': 'Add new subusers to this server.',
  'user.read': 'See the subusers of this server and their permissions.',
  'user.update': 'Change the permissions of other subusers.',
  'user.delete': 'Remove subusers from this server.',
  'file.create': 'Create new files and folders, and upload, copy or extract files.',
  'file.read': 'List files and folders.',
  'file.read-content': 'Open files and download their contents.',
  'file.update': 'Change existing files and folders, including renaming them.',
  'file.delete': 'Delete files and folders.',
  'file.archive': 'Create archives of files and folders.',
  'file.sftp': 'Connect over SFTP with the file permissions above.',
  'backup.create': 'Create new backups.',
  'backup.read': 'List backups and see their details.',
  'backup.delete': 'Delete backups and lock or unlock them.',
  'backup.download': 'Download backups.',
  'backup.restore': 'Restore a backup, replacing the current files.',
  'allocation.read': 'See every allocation of this server and its notes.',
  'allocation.create': 'Add allocations to this server.',
  'allocation.update': 'Change the primary allocation and allocation notes.',
  'allocation.delete': 'Remove allocations from this server.',
  'startup.read': 'See the startup variables of this server.',
  'startup.update': 'Change the startup variables of this server.',
  'startup.docker-image': 'Change the container image the server runs with.',
  'database.create': 'Create new databases.',
  'database.read': 'List databases.',
  'database.update': 'Rotate database passwords.',
  'database.delete': 'Delete databases.',
  'database.view_password': 'See database passwords.',
  'schedule.create': 'Create new schedules.',
  'schedule.read': 'List schedules and their tasks.',
  'schedule.update': 'Change schedules and their tasks.',
  'schedule.delete': 'Delete schedules.',
  'settings.rename': 'Change the name and description of this server.',
  'settings.reinstall': 'Reinstall this server.',
  'activity.read': 'Read the activity log of this server.',
};

/** Every permission group in the reference order, keyed by the part after the dot. */
export function permissionCatalogue(): Record<string, { description: string; keys: Record<string, string> }> {
  const groups = Object.keys(PERMISSION_GROUPS) as PermissionGroup[];
  return Object.fromEntries(
    groups.map((group) => {
      const perms: readonly Permission[] = PERMISSION_GROUPS[group];
      const keys = Object.fromEntries(perms.map((p) => [p.slice(group.length + 1), KEY_DESCRIPTIONS[p]]));
      return [group, { description: GROUP_DESCRIPTIONS[group], keys }];
    }),
  );
}
