import type { FastifyInstance } from 'fastify';
import { settingsEndpoints, type ServerStatus } from '../../src/contract';
import type { AppDeps } from '../deps';
import { eggs, servers } from '../db/repos';
import { DaemonError } from '../daemon/types';
import { daemonCall, toHttpError } from '../http/daemon-errors';
import { badRequest, conflict, validationError } from '../http/errors';
import { serverRoute } from '../http/routes';
import { assertServerUsable } from '../services/access';

/*
 * A server's settings (reference panel): renaming it, choosing among its egg's container images
 * (the node is handed the new configuration; an image applies on the next start), and
 * reinstalling it.
 */
export async function settingsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await serverRoute(
    app,
    deps,
    settingsEndpoints.rename,
  )(async ({ server, body, activity, daemon }) => {
    // An absent description is kept; null or '' clears it (the reference casts it to a string).
    const description = body.description === undefined ? server.description : (body.description ?? '');
    await servers.update(deps.db, server.id, { name: body.name, description }, deps.clock.now());
    await daemonCall(() => daemon.servers.sync(server.uuid));
    if (body.name !== server.name) await activity('server:settings.rename', { old: server.name, new: body.name });
    if (description !== server.description) await activity('server:settings.description', { old: server.description, new: description });
  });

  await serverRoute(
    app,
    deps,
    settingsEndpoints.dockerImage,
  )(async ({ server, body, activity, daemon }) => {
    const images = Object.values((await eggs.findById(deps.db, server.egg_id))?.docker_images ?? {});
    if (!images.includes(body.docker_image)) throw validationError('docker_image', 'The selected docker image is invalid.', 'in');
    if (!images.includes(server.docker_image)) {
      throw badRequest("This server's Docker image has been manually set by an administrator and cannot be updated.");
    }
    if (body.docker_image === server.docker_image) return;
    await servers.update(deps.db, server.id, { docker_image: body.docker_image }, deps.clock.now());
    await daemonCall(() => daemon.servers.sync(server.uuid));
    await activity('server:startup.image', { old: server.docker_image, new: body.docker_image });
  });

  await serverRoute(
    app,
    deps,
    settingsEndpoints.reinstall,
  )(async ({ server, activity, daemon }) => {
    // Installing before the node starts, so every other route answers 409 at once; the node's
    // `install.completed` clears it (or marks the failure). Claimed only from the status read: a
    // reinstall or restore asked for at the same moment has taken the server (409).
    const before = server.status as ServerStatus | null;
    if (!(await servers.setStatusFrom(deps.db, server.id, before, 'installing', deps.clock.now()))) {
      const now = await servers.findById(deps.db, server.id);
      if (now) assertServerUsable(now);
      throw conflict('This server is busy with another action, please try again later.');
    }
    try {
      await daemon.servers.reinstall(server.uuid);
    } catch (error) {
      // Refused before it began (the node does not know the server, or its lock is held): nothing
      // ran and nothing will report, so the status is put back.
      if (error instanceof DaemonError && (error.kind === 'conflict' || error.kind === 'not_found')) {
        await servers.setStatusFrom(deps.db, server.id, 'installing', before, deps.clock.now());
      }
      throw toHttpError(error);
    }
    await activity('server:reinstall');
  });
}
