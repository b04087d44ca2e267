import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../app';
import type { ServerRow } from '../db/schema';
import { ALL_PERMISSIONS_MARKER, type Permission } from '../../src/contract';
import { conflict, forbidden, notFound } from '../http/errors';
import { requireCaller, type Caller } from './auth-context';
import { findServer } from './servers';

/**
 * Access to one server (DESIGN "Rules of the house", pterodactyl-facts A2), checked in the
 * reference panel's order: unknown or unrelated server → 404 (existence never leaked); server in a
 * conflicting state → 409; missing permission → 403.
 */
export interface ServerAccess {
  caller: Caller;
  server: ServerRow;
  isOwner: boolean;
  isAdmin: boolean;
  /** Stored permissions of a subuser; owners and admins hold every permission. */
  subuserPermissions: Permission[] | null;
  /** What `meta.user_permissions` reports (pterodactyl-facts A3). */
  reported: string[];
  can(permission: Permission): boolean;
}

export async function serverAccess(deps: AppDeps, request: FastifyRequest, id: string): Promise<ServerAccess> {
  const caller = requireCaller(request);
  const server = await findServer(deps.db, id);
  if (!server) throw notFound();
  const isOwner = server.owner_id === caller.user.id;
  const isAdmin = caller.user.root_admin === 1;
  let subuserPermissions: Permission[] | null = null;
  if (!isOwner) {
    const sub = await deps.db
      .selectFrom('subusers')
      .select('permissions')
      .where('server_id', '=', server.id)
      .where('user_id', '=', caller.user.id)
      .executeTakeFirst();
    if (sub) subuserPermissions = JSON.parse(sub.permissions) as Permission[];
    else if (!isAdmin) throw notFound('The requested resource does not exist on this server.');
  }
  const full = isOwner || isAdmin;
  const reported = isAdmin
    ? [ALL_PERMISSIONS_MARKER, 'admin.websocket.errors', 'admin.websocket.install', 'admin.websocket.transfer']
    : full
      ? [ALL_PERMISSIONS_MARKER]
      : [...(subuserPermissions ?? [])];
  return {
    caller,
    server,
    isOwner,
    isAdmin,
    subuserPermissions: full ? null : subuserPermissions,
    reported,
    can: (permission) => full || (subuserPermissions ?? []).includes(permission),
  };
}

/** The 409 of a server that is suspended, installing, restoring or transferring (pterodactyl-facts A2). */
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
 * Everything a server action route needs: membership (404), usable state (409), then the
 * permission (403). Pass `permission: null` for routes any member may use.
 */
export async function authorizeServerAction(
  deps: AppDeps,
  request: FastifyRequest,
  id: string,
  permission: Permission | null,
): Promise<ServerAccess> {
  const access = await serverAccess(deps, request, id);
  const node = await deps.db.selectFrom('nodes').select('maintenance_mode').where('id', '=', access.server.node_id).executeTakeFirst();
  assertServerUsable(access.server, node?.maintenance_mode === 1);
  if (permission && !access.can(permission)) throw forbidden();
  return access;
}
