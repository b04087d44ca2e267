import type { FastifyInstance } from 'fastify';
import { startupEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { DaemonError } from '../daemon/types';
import { serverRoute } from '../http/routes';
import { startupView, updateVariable } from '../services/startup';

/* The startup variables of a server (reference panel): read them, and set one. */

export async function startupRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(app, deps, startupEndpoints.read)(async ({ server }) => startupView(deps.db, server));

  await serverRoute(
    app,
    deps,
    startupEndpoints.updateVariable,
  )(async ({ server, body, activity, daemon }) => {
    const change = await updateVariable(deps.db, server, body.key, body.value);
    if (change.old !== undefined) {
      await activity('server:startup.edit', { variable: body.key, old: change.old, new: change.variable.attributes.server_value });
      // The node fetches the new environment, applied on the next start. One that cannot be
      // reached now fetches it before that start anyway (as Wings does), so the value arrives.
      await daemon.servers.sync(server.uuid).catch((err: unknown) => {
        if (!(err instanceof DaemonError)) throw err;
      });
    }
    return change.variable;
  });
}
