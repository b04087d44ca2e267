import type { FastifyInstance } from 'fastify';
import { websocketEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import type { ServerRow } from '../db/schema';
import { forbidden } from '../http/errors';
import { publicOrigin } from '../http/origin';
import { serverRoute } from '../http/routes';
import { assertServerUsable } from '../services/access';
import { tokenForServer } from '../services/node-tokens';

/** Lifetime of a console token; the SPA asks for a new one when the daemon says it is expiring. */
const SOCKET_TOKEN_SECONDS = 10 * 60;

/** Admins may still watch a server that is installing, restoring or moving (but not one suspended). */
function adminMayWatch(server: ServerRow): boolean {
  return ['installing', 'install_failed', 'restoring_backup'].includes(server.status ?? '') || server.is_transferring === 1;
}

/** GET servers/{server}/websocket: a signed token for the node's console and where to connect. */
export async function websocketRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(
    app,
    deps,
    websocketEndpoints.token,
  )(async ({ request, caller, access, server }) => {
    if (!(access.isAdmin && adminMayWatch(server))) assertServerUsable(server, access.node.maintenance_mode === 1);
    if (!access.can('websocket.connect'))
      throw forbidden("You do not have permission to connect to this server's websocket.", 'HttpForbiddenException');
    const panelOrigin = publicOrigin(request, deps.config.appUrl);
    const claims = { permissions: access.reported };
    const { token, connection } = await tokenForServer(deps.db, deps.nodes, {
      server,
      user: caller.user,
      scope: 'websocket',
      claims,
      ttlSeconds: SOCKET_TOKEN_SECONDS,
      panelOrigin,
      now: deps.clock.now(),
    });
    const socket = `${connection.replace(/^http/, 'ws')}/api/servers/${server.uuid}/ws`;
    return { data: { token, socket } };
  });
}
