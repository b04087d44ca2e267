import type { FastifyInstance } from 'fastify';
import { consoleEndpoints, isPowerSignal, POWER_PERMISSIONS, powerSchema, type PowerSignal } from '../../src/contract';
import type { AppDeps } from '../deps';
import { daemonCall } from '../http/daemon-errors';
import { forbidden, parseWith } from '../http/errors';
import { serverRoute } from '../http/routes';
import { runningPart, sendCommand, sendPower } from '../services/server-actions';

/*
 * The console over HTTP (reference panel): a command for the server's console, and the power
 * signals, each passed to the server's node. The live console itself is the node's websocket.
 */

export async function consoleRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(app, deps, consoleEndpoints.command)(async ({ body, action }) => sendCommand(action, body.command));

  await serverRoute(
    app,
    deps,
    consoleEndpoints.power,
  )(async ({ body, access, action }) => {
    // An unknown signal needs a permission nobody has: 403 for subusers, the 422 below for the rest.
    if (isPowerSignal(body.signal) ? !access.can(POWER_PERMISSIONS[body.signal]) : !(access.isOwner || access.isAdmin)) {
      throw forbidden();
    }
    const { signal } = parseWith(powerSchema, body);
    await sendPower(action, signal as PowerSignal);
  });

  await serverRoute(
    app,
    deps,
    consoleEndpoints.resources,
  )(async ({ server, daemon }) => {
    const stats = await daemonCall(async () => runningPart(daemon.stats).resources(server.uuid));
    return {
      object: 'stats' as const,
      attributes: {
        current_state: stats.state,
        is_suspended: server.status === 'suspended',
        resources: {
          memory_bytes: stats.memory_bytes,
          cpu_absolute: stats.cpu_absolute,
          disk_bytes: stats.disk_bytes,
          network_rx_bytes: stats.network.rx_bytes,
          network_tx_bytes: stats.network.tx_bytes,
          uptime: stats.uptime,
        },
      },
    };
  });
}
