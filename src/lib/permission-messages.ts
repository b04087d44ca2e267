import type { Permission, PermissionGroup } from '../contract/permissions';
import type english from './locales/en.json';

type LibMessage = keyof typeof english;

/*
 * Our own words for each permission and each group (`group.*`), in every language: the panel's
 * catalogue (`GET /api/client/permissions`) speaks English only. Typed over every permission, so a
 * new one without a message does not compile. The English messages are the embedded panel's text.
 */
const PERMISSION_MESSAGES: Record<Permission | `${PermissionGroup}.*`, LibMessage> = {
  'websocket.*': 'lib.permission.group.websocket',
  'websocket.connect': 'lib.permission.text.websocket.connect',
  'control.*': 'lib.permission.group.control',
  'control.console': 'lib.permission.text.control.console',
  'control.start': 'lib.permission.text.control.start',
  'control.stop': 'lib.permission.text.control.stop',
  'control.restart': 'lib.permission.text.control.restart',
  'user.*': 'lib.permission.group.user',
  'user.create': 'lib.permission.text.user.create',
  'user.read': 'lib.permission.text.user.read',
  'user.update': 'lib.permission.text.user.update',
  'user.delete': 'lib.permission.text.user.delete',
  'file.*': 'lib.permission.group.file',
  'file.create': 'lib.permission.text.file.create',
  'file.read': 'lib.permission.text.file.read',
  'file.read-content': 'lib.permission.text.file.read-content',
  'file.update': 'lib.permission.text.file.update',
  'file.delete': 'lib.permission.text.file.delete',
  'file.archive': 'lib.permission.text.file.archive',
  'file.sftp': 'lib.permission.text.file.sftp',
  'backup.*': 'lib.permission.group.backup',
  'backup.create': 'lib.permission.text.backup.create',
  'backup.read': 'lib.permission.text.backup.read',
  'backup.delete': 'lib.permission.text.backup.delete',
  'backup.download': 'lib.permission.text.backup.download',
  'backup.restore': 'lib.permission.text.backup.restore',
  'allocation.*': 'lib.permission.group.allocation',
  'allocation.read': 'lib.permission.text.allocation.read',
  'allocation.create': 'lib.permission.text.allocation.create',
  'allocation.update': 'lib.permission.text.allocation.update',
  'allocation.delete': 'lib.permission.text.allocation.delete',
  'startup.*': 'lib.permission.group.startup',
  'startup.read': 'lib.permission.text.startup.read',
  'startup.update': 'lib.permission.text.startup.update',
  'startup.docker-image': 'lib.permission.text.startup.docker-image',
  'database.*': 'lib.permission.group.database',
  'database.create': 'lib.permission.text.database.create',
  'database.read': 'lib.permission.text.database.read',
  'database.update': 'lib.permission.text.database.update',
  'database.delete': 'lib.permission.text.database.delete',
  'database.view_password': 'lib.permission.text.database.view_password',
  'schedule.*': 'lib.permission.group.schedule',
  'schedule.create': 'lib.permission.text.schedule.create',
  'schedule.read': 'lib.permission.text.schedule.read',
  'schedule.update': 'lib.permission.text.schedule.update',
  'schedule.delete': 'lib.permission.text.schedule.delete',
  'settings.*': 'lib.permission.group.settings',
  'settings.rename': 'lib.permission.text.settings.rename',
  'settings.reinstall': 'lib.permission.text.settings.reinstall',
  'activity.*': 'lib.permission.group.activity',
  'activity.read': 'lib.permission.text.activity.read',
};

// A Map, never a plain-object lookup: a panel's `constructor` or `__proto__` is no permission of ours.
const MESSAGES = new Map<string, LibMessage>(Object.entries(PERMISSION_MESSAGES));

/** The message describing a permission or `group.*`, or undefined for one we have no words for. */
export function permissionMessage(permission: string): LibMessage | undefined {
  return MESSAGES.get(permission);
}
