import type { ApplicationServerBuild, ApplicationServerDetails, ApplicationServerStartup, ServerStatus } from '../../src/contract';
import { writeTransaction, type Db } from '../db';
import { allocations, applicationServers, eggs, nodes, servers, users } from '../db/repos';
import type { ServerRow } from '../db/schema';
import { DaemonError } from '../daemon/types';
import { toHttpError } from '../http/daemon-errors';
import { badRequest, conflict, validationError } from '../http/errors';
import { assertExternalIdFree, checkEnvironment, INVALID } from './application-server-create';
import type { NodeDaemons } from './node-daemons';
import { revokeSocketTokens } from './node-tokens';
import { deleteDatabase, listDatabases } from './server-databases';
import { deleteServer } from './server-deletion';
import type { SecretBox } from '../lib/secret-box';

/*
 * An operator's changes to a server through the application API (the reference's
 * DetailsModificationService, BuildModificationService, StartupModificationService,
 * SuspensionService and ReinstallServerService). Every change ends in a sync, so the node has
 * the new limits, owner or suspension at once.
 */

export const NOT_ASSIGNED = 'The requested default allocation is not currently assigned to this server.';
export const NO_FALLBACK = 'You are attempting to delete the default allocation for this server but there is no fallback allocation to use.';
export const TRANSFERRING = 'Cannot toggle suspension status on a server that is currently being transferred.';

async function daemonOf(db: Db, daemons: NodeDaemons, server: ServerRow) {
  const node = await nodes.findById(db, server.node_id);
  return node ? daemons.forNode(node) : undefined;
}

/** Has the node take the server's configuration again; a node that cannot be told now pulls it before the next start. */
async function sync(db: Db, daemons: NodeDaemons, server: ServerRow): Promise<void> {
  await (await daemonOf(db, daemons, server))?.servers.sync(server.uuid).catch(() => undefined);
}

export async function changeDetails(db: Db, daemons: NodeDaemons, server: ServerRow, body: ApplicationServerDetails, now: Date): Promise<ServerRow> {
  if (!(await users.findById(db, body.user))) throw validationError('user', INVALID('user'), 'exists');
  await assertExternalIdFree(db, body.external_id, server.id);
  const updated = await applicationServers.change(
    db,
    server.id,
    {
      name: body.name,
      owner_id: body.user,
      ...(body.external_id !== undefined ? { external_id: body.external_id } : {}),
      ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
    },
    now,
  );
  await sync(db, daemons, updated);
  // The old owner's console tokens are refused from now on (T-SESS-5), as the reference does.
  const daemon = await daemonOf(db, daemons, server);
  if (daemon && body.user !== server.owner_id) await revokeSocketTokens(daemon, server.uuid, server.owner_id).catch(() => undefined);
  return updated;
}

export async function changeBuild(db: Db, daemons: NodeDaemons, server: ServerRow, body: ApplicationServerBuild, now: Date): Promise<ServerRow> {
  const limits = body.limits ?? body;
  const updated = await writeTransaction(db, async (trx) => {
    const current = (await servers.findById(trx, server.id)) ?? server;
    // Only free allocations of the server's own node are added; others are passed over, as there.
    const adding = (await applicationServers.allocationsByIds(trx, body.add_allocations ?? [])).filter(
      (a) => a.server_id === null && a.node_id === current.node_id,
    );
    await applicationServers.assignFree(
      trx,
      adding.map((a) => a.id),
      current.id,
    );
    const removing = (await applicationServers.allocationsByIds(trx, body.remove_allocations ?? [])).filter((a) => a.server_id === current.id);
    let primary = body.allocation;
    if (removing.some((a) => a.id === primary)) {
      const rest = (await serverAllocations(trx, current.id)).filter((id) => !removing.some((a) => a.id === id));
      const fallback = rest[0];
      if (fallback === undefined) throw badRequest(NO_FALLBACK, 'DisplayException');
      primary = fallback;
    }
    await applicationServers.release(
      trx,
      removing.map((a) => a.id),
      current.id,
    );
    if (!(await serverAllocations(trx, current.id)).includes(primary)) throw badRequest(NOT_ASSIGNED, 'DisplayException');
    return applicationServers.change(
      trx,
      current.id,
      {
        allocation_id: primary,
        memory: limits.memory,
        swap: limits.swap,
        disk: limits.disk,
        io: limits.io,
        cpu: limits.cpu,
        ...(limits.threads !== undefined ? { threads: limits.threads || null } : {}),
        ...(body.oom_disabled !== undefined ? { oom_disabled: body.oom_disabled ? 1 : 0 } : {}),
        database_limit: body.feature_limits.databases,
        ...(body.feature_limits.allocations !== undefined ? { allocation_limit: body.feature_limits.allocations } : {}),
        backup_limit: body.feature_limits.backups,
      },
      now,
    );
  });
  await sync(db, daemons, updated);
  return updated;
}

async function serverAllocations(db: Db, serverId: number): Promise<number[]> {
  return (await allocations.ofServers(db, [serverId])).map((a) => a.id);
}

export async function changeStartup(db: Db, daemons: NodeDaemons, server: ServerRow, body: ApplicationServerStartup, now: Date): Promise<ServerRow> {
  const egg = await eggs.findById(db, body.egg);
  if (!egg) throw validationError('egg', INVALID('egg'), 'exists');
  const eggChanged = egg.id !== server.egg_id;
  const [variables, current] = await Promise.all([eggs.variablesOf(db, [egg.id]), servers.variableValues(db, [server.id])]);
  // A variable left out keeps its value (a new egg's: its default).
  const values = checkEnvironment(
    variables,
    body.environment,
    (v) => (eggChanged ? undefined : current.get(`${server.id}:${v.id}`)) ?? v.default_value,
  );
  const updated = await writeTransaction(db, async (trx) => {
    await servers.setBuild(
      trx,
      server.id,
      { egg_id: egg.id, startup: body.startup ?? server.startup, docker_image: body.image ?? server.docker_image },
      now,
    );
    const row = await applicationServers.change(trx, server.id, { skip_scripts: body.skip_scripts ? 1 : 0 }, now);
    for (const [variableId, value] of values) await servers.setVariableValue(trx, server.id, variableId, value);
    return row;
  });
  await sync(db, daemons, updated);
  return updated;
}

/** Suspends or unsuspends; the same state again does nothing. A node that refuses puts the status back (the reference's order). */
export async function setSuspended(db: Db, daemons: NodeDaemons, server: ServerRow, suspend: boolean, now: Date): Promise<ServerRow | undefined> {
  if ((server.status === 'suspended') === suspend) return undefined;
  if (server.is_transferring === 1) throw conflict(TRANSFERRING);
  const updated = await servers.setStatus(db, server.id, suspend ? 'suspended' : null, now);
  const daemon = await daemonOf(db, daemons, server);
  try {
    await daemon?.servers.sync(server.uuid);
  } catch (error) {
    await servers.setStatus(db, server.id, server.status as ServerStatus | null, now);
    throw toHttpError(error);
  }
  return updated;
}

/** Runs the egg's install script again (the server is `installing` until the node reports its end). */
export async function reinstall(db: Db, daemons: NodeDaemons, server: ServerRow, now: Date): Promise<void> {
  const before = server.status as ServerStatus | null;
  if (before === 'suspended' || before === 'installing' || before === 'restoring_backup' || server.is_transferring === 1) {
    throw conflict('This server cannot be reinstalled in its current state.');
  }
  const daemon = await daemonOf(db, daemons, server);
  if (!daemon || !(await servers.setStatusFrom(db, server.id, before, 'installing', now))) {
    throw conflict('This server is busy with another action, please try again later.');
  }
  try {
    await daemon.servers.reinstall(server.uuid);
  } catch (error) {
    if (error instanceof DaemonError && (error.kind === 'conflict' || error.kind === 'not_found')) {
      await servers.setStatusFrom(db, server.id, 'installing', before, now);
    }
    throw toHttpError(error);
  }
}

/**
 * Deletes the server (`server-deletion.ts`'s order). Forced, as the reference's `force`, a node or
 * database host that refuses is passed over and the records go anyway: the operator has given up
 * on what is left there.
 */
export async function deleteApplicationServer(db: Db, daemons: NodeDaemons, box: SecretBox, server: ServerRow, force: boolean): Promise<void> {
  if (!force) {
    await deleteServer(db, daemons, box, server).catch((error: unknown) => {
      throw toHttpError(error);
    });
    return;
  }
  await (await daemonOf(db, daemons, server))?.servers.delete(server.uuid).catch(() => undefined);
  for (const target of await listDatabases(db, server)) await deleteDatabase(db, box, target).catch(() => undefined);
  await servers.remove(db, server.id);
}
