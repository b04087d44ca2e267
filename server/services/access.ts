import { ALL_PERMISSIONS_MARKER, permits, type ApplicationResource, type Permission, type PermissionCheck } from '../../src/contract';
import type { Db } from '../db';
import { nodes, servers, subusers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import { conflict, forbidden, notFound } from '../http/errors';
import type { Caller } from './authentication';

/**
 * Access to one server, checked in the
 * reference panel's order: unknown or unrelated server → 404 (existence never leaked); server in a
 * conflicting state → 409; missing permission → 403.
 */
export interface ServerAccess {
  caller: Caller;
  server: ServerRow;
  /** The node the server runs on. */
  node: NodeRow;
  isOwner: boolean;
  isAdmin: boolean;
  /** Stored permissions of a subuser; null for owners and admins, who hold every permission. */
  subuserPermissions: Permission[] | null;
  /** What `meta.user_permissions` reports: `["*"]` for owners and root admins, the granted list for a subuser. */
  reported: string[];
  can(permission: PermissionCheck): boolean;
}

const ADMIN_REPORTED = [ALL_PERMISSIONS_MARKER, 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer'];
/**
 * An owner who is not an admin is reported `*` alone, as by the reference panel: Wings' `*` leaves
 * out `admin.*`, so install output stays with admins. The install script is the operator's egg and
 * runs with every egg variable, the ones hidden from users too: its output can show them.
 */
const OWNER_REPORTED = [ALL_PERMISSIONS_MARKER];

/** The caller's relation to the server named by `id` (identifier or uuid); 404 when there is none. */
export async function serverAccess(db: Db, caller: Caller, id: string): Promise<ServerAccess> {
  const server = await servers.findByIdentifier(db, id);
  if (!server) throw notFound();
  const node = await nodes.findById(db, server.node_id);
  if (!node) throw new Error(`Server ${server.uuid} has no node.`);
  const isOwner = server.owner_id === caller.user.id;
  const isAdmin = caller.user.root_admin === 1;
  let stored: Permission[] | null = null;
  if (!isOwner) {
    const sub = await subusers.find(db, server.id, caller.user.id);
    if (sub) stored = sub.permissions;
    else if (!isAdmin) throw notFound('The requested resource does not exist on this server.');
  }
  const full = isOwner || isAdmin;
  const reported = isAdmin ? ADMIN_REPORTED : isOwner ? OWNER_REPORTED : [...(stored ?? [])];
  return {
    caller,
    server,
    node,
    isOwner,
    isAdmin,
    subuserPermissions: full ? null : stored,
    reported,
    // The same reading of `*` and `group.*` as the SPA, over what the caller really holds.
    can: (permission) => full || permits(stored ?? [], permission),
  };
}

/** The 409 of a server that is suspended, installing, restoring or transferring. */
export function assertServerUsable(server: ServerRow, nodeUnderMaintenance = false): void {
  if (server.status === 'suspended') throw conflict('This server is currently suspended and the functionality requested is unavailable.');
  if (nodeUnderMaintenance) throw conflict('The node of this server is currently under maintenance and the functionality requested is unavailable.');
  if (server.status === 'installing' || server.status === 'install_failed') {
    throw conflict('This server has not yet completed its installation process, please try again later.');
  }
  if (server.status === 'restoring_backup') throw conflict('This server is currently restoring from a backup, please try again later.');
  if (server.is_transferring === 1) throw conflict('This server is currently being transferred to a new machine, please try again later.');
}

/**
 * Everything a server action needs: membership (404), usable state (409, unless `anyState`), then
 * the permission (403). `permission: null` lets any member through.
 */
export async function authorizeServerAction(
  db: Db,
  caller: Caller,
  id: string,
  permission: PermissionCheck | null,
  options: { anyState?: boolean } = {},
): Promise<ServerAccess> {
  const access = await serverAccess(db, caller, id);
  checkServerAction(access, permission, options);
  return access;
}

/** The state (409) and permission (403) checks of `authorizeServerAction`, on known access. */
export function checkServerAction(access: ServerAccess, permission: PermissionCheck | null, options: { anyState?: boolean } = {}): void {
  if (!options.anyState) assertServerUsable(access.server, access.node.maintenance_mode === 1);
  if (permission && !access.can(permission)) throw forbidden();
}

/**
 * May this caller use an admin route (the application API)? Root admins only (the reference's
 * "This account does not have permission to access the API."), by their browser session or by an
 * application key that holds `resource` (read for reading, write for changes: the reference's
 * AdminAcl); a route without a resource is for the session alone. A client key is never enough,
 * wherever the route is mounted.
 */
export function checkAdminAccess(caller: Caller, resource: ApplicationResource | undefined, write: boolean): void {
  if (caller.user.root_admin !== 1) throw forbidden('This account does not have permission to access the API.');
  if (caller.sessionId !== null) return;
  const grants = caller.applicationGrants;
  if (!grants || resource === undefined || ((grants[resource] ?? 0) & (write ? 2 : 1)) === 0) throw forbidden();
}
