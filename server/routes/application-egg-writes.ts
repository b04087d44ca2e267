import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eggWriteEndpoints } from '../../src/contract/egg-writes';
import type { AppDeps } from '../deps';
import { eggWrites } from '../db/repos';
import type { Egg } from '../db/repos/eggs';
import { notFound } from '../http/errors';
import { adminRoute } from '../http/routes';
import { adminActivity, logActivity } from '../services/activity';
import type { Caller } from '../services/authentication';
import * as admin from '../services/egg-admin';
import { exportEgg, exportFileName, importEgg, parseEggFile, replaceEgg } from '../services/egg-files';
import { boundEgg, boundNest, eggResource, eggVariableResource, nestResource } from './application-egg-resources';
import { RESOURCE_MISSING } from './application-users';

/*
 * Aerie's own nest and egg writes under `/api/application` (issue 25 §3): what the reference's
 * admin pages do, for the admin area; each write logs an admin activity entry.
 */

type EggEvent = 'admin:egg.create' | 'admin:egg.import' | 'admin:egg.update' | 'admin:egg.delete';
type NestEvent = 'admin:nest.create' | 'admin:nest.update' | 'admin:nest.delete';

export async function applicationEggWriteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const now = () => deps.clock.now();
  const logEgg = (caller: Caller, request: FastifyRequest, event: EggEvent, egg: Egg, extra: Record<string, unknown> = {}) =>
    logActivity(deps.db, adminActivity(caller, request.ip, event, { name: egg.name, ...extra }, now(), [{ type: 'egg', id: egg.id }]));
  const logNest = (caller: Caller, request: FastifyRequest, event: NestEvent, nest: { id: number; name: string }) =>
    logActivity(deps.db, adminActivity(caller, request.ip, event, { name: nest.name }, now(), [{ type: 'nest', id: nest.id }]));
  const nestOf = (request: FastifyRequest) => boundNest(deps, (request.params as { nest?: unknown }).nest);
  const variableOf = async (request: FastifyRequest, egg: Egg) => {
    const param = (request.params as { variable?: unknown }).variable;
    const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
    const variable = id === null ? undefined : await eggWrites.findVariable(deps.db, egg.id, id);
    if (!variable) throw notFound(RESOURCE_MISSING);
    return variable;
  };

  await adminRoute(
    app,
    eggWriteEndpoints.createNest,
  )(async ({ request, reply, caller, body }) => {
    const nest = await admin.createNest(deps.db, body, now());
    await logNest(caller, request, 'admin:nest.create', nest);
    reply.status(201);
    return nestResource(nest);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.updateNest,
  )(async ({ request, caller, body }) => {
    const nest = await admin.updateNest(deps.db, await nestOf(request), body, now());
    await logNest(caller, request, 'admin:nest.update', nest);
    return nestResource(nest);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.deleteNest,
  )(async ({ request, caller }) => {
    const nest = await nestOf(request);
    await admin.deleteNest(deps.db, nest);
    await logNest(caller, request, 'admin:nest.delete', nest);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const egg = await admin.createEgg(deps.db, await nestOf(request), body, now());
    await logEgg(caller, request, 'admin:egg.create', egg);
    reply.status(201);
    return eggResource(egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.update,
  )(async ({ request, caller, body }) => {
    const egg = await admin.updateEgg(deps.db, await boundEgg(deps, request.params), body, now());
    await logEgg(caller, request, 'admin:egg.update', egg);
    return eggResource(egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.script,
  )(async ({ request, caller, body }) => {
    const egg = await admin.setScript(deps.db, await boundEgg(deps, request.params), body, now());
    await logEgg(caller, request, 'admin:egg.update', egg, { script: true });
    return eggResource(egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.delete,
  )(async ({ request, caller }) => {
    const egg = await boundEgg(deps, request.params);
    await admin.deleteEgg(deps.db, egg);
    await logEgg(caller, request, 'admin:egg.delete', egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.createVariable,
  )(async ({ request, reply, caller, body }) => {
    const egg = await boundEgg(deps, request.params);
    const variable = await admin.createVariable(deps.db, egg, body, now());
    await logEgg(caller, request, 'admin:egg.update', egg, { variable: variable.env_variable });
    reply.status(201);
    return eggVariableResource(variable);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.updateVariable,
  )(async ({ request, caller, body }) => {
    const egg = await boundEgg(deps, request.params);
    const variable = await admin.updateVariable(deps.db, egg, await variableOf(request, egg), body, now());
    await logEgg(caller, request, 'admin:egg.update', egg, { variable: variable.env_variable });
    return eggVariableResource(variable);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.deleteVariable,
  )(async ({ request, caller }) => {
    const egg = await boundEgg(deps, request.params);
    const variable = await variableOf(request, egg);
    await admin.deleteVariable(deps.db, variable);
    await logEgg(caller, request, 'admin:egg.update', egg, { variable: variable.env_variable, deleted: true });
  });

  await adminRoute(
    app,
    eggWriteEndpoints.import,
  )(async ({ request, reply, caller, body }) => {
    const nest = await nestOf(request);
    const egg = await importEgg(deps.db, nest.id, await parseEggFile(body), now());
    await logEgg(caller, request, 'admin:egg.import', egg);
    reply.status(201);
    return eggResource(egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.replace,
  )(async ({ request, caller, body }) => {
    const before = await boundEgg(deps, request.params);
    const egg = await replaceEgg(deps.db, before, await parseEggFile(body), now());
    await logEgg(caller, request, 'admin:egg.import', egg, { replaced: true });
    return eggResource(egg);
  });

  await adminRoute(
    app,
    eggWriteEndpoints.export,
  )(async ({ request, reply }) => {
    const egg = await boundEgg(deps, request.params);
    reply.header('content-disposition', `attachment; filename="${exportFileName(egg)}"`);
    return exportEgg(deps.db, egg, now());
  });
}
