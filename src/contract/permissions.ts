import * as z from 'zod/mini';

/** Subuser permission strings, grouped and in the reference panel's order. */
export const PERMISSION_GROUPS = {
  websocket: ['websocket.connect'],
  control: ['control.console', 'control.start', 'control.stop', 'control.restart'],
  user: ['user.create', 'user.read', 'user.update', 'user.delete'],
  file: ['file.create', 'file.read', 'file.read-content', 'file.update', 'file.delete', 'file.archive', 'file.sftp'],
  backup: ['backup.create', 'backup.read', 'backup.delete', 'backup.download', 'backup.restore'],
  allocation: ['allocation.read', 'allocation.create', 'allocation.update', 'allocation.delete'],
  startup: ['startup.read', 'startup.update', 'startup.docker-image'],
  database: ['database.create', 'database.read', 'database.update', 'database.delete', 'database.view_password'],
  schedule: ['schedule.create', 'schedule.read', 'schedule.update', 'schedule.delete'],
  settings: ['settings.rename', 'settings.reinstall'],
  activity: ['activity.read'],
} as const;

export type PermissionGroup = keyof typeof PERMISSION_GROUPS;
export type Permission = (typeof PERMISSION_GROUPS)[PermissionGroup][number];

export const PERMISSIONS: readonly Permission[] = Object.values(PERMISSION_GROUPS).flat();

/** A permission, or `group.*` for "any permission of the group"; a misspelt one does not compile. */
export type PermissionCheck = Permission | `${PermissionGroup}.*`;

// A Set, never a plain-object lookup: `__proto__`/`constructor` must not count as known.
const KNOWN = new Set<string>(PERMISSIONS);

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && KNOWN.has(value);
}

export const permissionSchema = z.string().check(z.refine(isPermission, 'Unknown permission.'));

/** What the reference panel reports in `meta.user_permissions` for owners and admins. */
export const ALL_PERMISSIONS_MARKER = '*';

/**
 * Does a reported permission list grant `wanted`? `*` grants everything, `group.*` grants the
 * group (as the reference SPA reads them), otherwise an exact match.
 */
export function permits(granted: readonly string[], wanted: PermissionCheck): boolean {
  if (granted.includes(ALL_PERMISSIONS_MARKER)) return true;
  if (wanted.endsWith('.*')) {
    const prefix = wanted.slice(0, -1);
    return granted.some((p) => p.startsWith(prefix));
  }
  return granted.includes(wanted);
}
