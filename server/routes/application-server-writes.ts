import type { FastifyInstance, FastifyRequest } from 'fastify';
import { applicationServerEndpoints, type ActivityEvent } from '../../src/contract';
import type { ServerRow } from '../db/schema';
import { adminActivity, logActivity } from '../services/activity';
import type { Caller } from '../services/authentication';
import type { AppDeps } from '../deps';
import { adminRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { changeBuild, changeDetails, changeStartup, deleteApplicationServer, reinstall, setSuspended } from '../services/application-server-changes';
import { applicationServerResource, boundServer } from './application-server-resource';

/*
 * The application API's changes to one server: details, build, startup, suspension, reinstall and
 * deletion, each logged as its admin event with the server as subject.
 */

/** The audit entry of an admin's change to `server`, the key (or session) as actor. */
export function serverEvent(
  deps: AppDeps,
  request: FastifyRequest,
  caller: Caller,
  event: ActivityEvent & `admin:server.${string}`,
  server: ServerRow,
  more: Record<string, string> = {},
) {
  return logActivity(
    deps.db,
    adminActivity(caller, request.ip, event, { name: server.name, ...more }, deps.clock.now(), [{ type: 'server', id: server.id }]),
  );
}

const serverOf = (deps: AppDeps, request: FastifyRequest) => boundServer(deps, (request.params as { server: string }).server);

export async function applicationServerWriteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const endpoints = applicationServerEndpoints;
  const box = loadSecretBox(deps.config.dataDir);

  await adminRoute(
    app,
    endpoints.details,
  )(async ({ request, caller, body }) => {
    const updated = await changeDetails(deps.db, deps.nodes, await serverOf(deps, request), body, deps.clock.now());
    await serverEvent(deps, request, caller, 'admin:server.details', updated);
    return applicationServerResource(deps, updated, caller);
  });

  await adminRoute(
    app,
    endpoints.build,
  )(async ({ request, caller, body }) => {
    const updated = await changeBuild(deps.db, deps.nodes, await serverOf(deps, request), body, deps.clock.now());
    await serverEvent(deps, request, caller, 'admin:server.build', updated);
    return applicationServerResource(deps, updated, caller);
  });

  await adminRoute(
    app,
    endpoints.startup,
  )(async ({ request, caller, body }) => {
    const updated = await changeStartup(deps.db, deps.nodes, await serverOf(deps, request), body, deps.clock.now());
    await serverEvent(deps, request, caller, 'admin:server.startup', updated);
    return applicationServerResource(deps, updated, caller);
  });

  for (const suspend of [true, false]) {
    await adminRoute(
      app,
      suspend ? endpoints.suspend : endpoints.unsuspend,
    )(async ({ request, caller }) => {
      const server = await serverOf(deps, request);
      // Asking for the state it is in changes nothing and logs nothing, as the reference.
      if (await setSuspended(deps.db, deps.nodes, server, suspend, deps.clock.now())) {
        await serverEvent(deps, request, caller, suspend ? 'admin:server.suspend' : 'admin:server.unsuspend', server);
      }
    });
  }

  await adminRoute(
    app,
    endpoints.reinstall,
  )(async ({ request, caller }) => {
    const server = await serverOf(deps, request);
    await reinstall(deps.db, deps.nodes, server, deps.clock.now());
    await serverEvent(deps, request, caller, 'admin:server.reinstall', server);
  });

  for (const force of [false, true]) {
    await adminRoute(
      app,
      force ? endpoints.forceDelete : endpoints.delete,
    )(async ({ request, caller }) => {
      const server = await serverOf(deps, request);
      await deleteApplicationServer(deps.db, deps.nodes, box, server, force);
      await serverEvent(deps, request, caller, 'admin:server.delete', server);
    });
  }
}
