import { checkVariableValue, type ApplicationServerCreate } from '../../src/contract';
import { writeTransaction, type Db } from '../db';
import { applicationServers, eggs, nodes, users } from '../db/repos';
import type { EggVariableRow, ServerRow } from '../db/schema';
import { notFound, validationError, validationErrors } from '../http/errors';
import type { PortRange } from './allocations';
import { deploymentTarget, type DeploymentRequest } from './deployment';
import type { NodeDaemons } from './node-daemons';
import { installServer } from './servers';
import { insertServer } from './server-creation';
import { testRegexBounded } from './startup';

/*
 * A server made through the application API (the reference's ServerCreationService): the owner,
 * egg and environment checked, its allocations (the ones named, or one found by deployment), the
 * row, then the node creates it and runs its egg's install script, as `createServer` does for
 * the CLI. A variable the body leaves out takes the egg's default (where the reference would
 * store it empty), so a billing module that sends only what it sets gets a server that starts.
 */

export const INVALID = (field: string) => `The selected ${field} is invalid.`;
export const EXTERNAL_ID_TAKEN = 'The external id has already been taken.';

/**
 * Each variable's value after the egg's rules: the value given, else `fallback(variable)`. One
 * 422 names every failing variable as `environment.NAME`.
 */
export function checkEnvironment(
  variables: readonly EggVariableRow[],
  given: Readonly<Record<string, string | null>>,
  fallback: (variable: EggVariableRow) => string,
): Map<number, string> {
  const values = new Map<number, string>();
  const failures: { field: string; detail: string }[] = [];
  for (const variable of variables) {
    const sent = given[variable.env_variable];
    const value = sent === undefined ? fallback(variable) : (sent ?? '');
    const failure = checkVariableValue(value, variable.rules, variable.name, testRegexBounded);
    if (failure) failures.push({ field: `environment.${variable.env_variable}`, detail: failure });
    values.set(variable.id, value.trim());
  }
  if (failures.length > 0) throw validationErrors(failures, 'rules');
  return values;
}

/** 422 on `field` unless the external id is free (null and absent always are). */
export async function assertExternalIdFree(db: Db, externalId: string | null | undefined, exceptId?: number): Promise<void> {
  if (externalId && (await applicationServers.externalIdTaken(db, externalId, exceptId)))
    throw validationError('external_id', EXTERNAL_ID_TAKEN, 'unique');
}

export async function createApplicationServer(
  db: Db,
  daemons: NodeDaemons,
  body: ApplicationServerCreate,
  panelPorts: PortRange,
  now: Date,
): Promise<ServerRow> {
  if (!(await users.findById(db, body.user))) throw validationError('user', INVALID('user'), 'exists');
  const egg = await eggs.findById(db, body.egg);
  if (!egg) throw validationError('egg', INVALID('egg'), 'exists');
  await assertExternalIdFree(db, body.external_id);
  const values = checkEnvironment(await eggs.variablesOf(db, [egg.id]), body.environment, (v) => v.default_value);

  const server = await writeTransaction(db, async (trx) => {
    const explicit = body.deploy === undefined ? await namedAllocations(trx, body) : undefined;
    const deploy = body.deploy;
    const target = deploy === undefined ? undefined : await deploymentTarget(trx, deployment(body, deploy), panelPorts);
    const nodeId = explicit?.nodeId ?? target?.node.id;
    if (nodeId === undefined) throw notFound();
    const fields = {
      external_id: body.external_id ?? null,
      node_id: nodeId,
      owner_id: body.user,
      egg_id: egg.id,
      name: body.name,
      description: body.description ?? '',
      memory: body.limits.memory,
      swap: body.limits.swap,
      disk: body.limits.disk,
      io: body.limits.io,
      cpu: body.limits.cpu,
      threads: body.limits.threads ?? null,
      oom_disabled: body.oom_disabled === true ? 1 : 0,
      startup: body.startup,
      docker_image: body.docker_image,
      database_limit: body.feature_limits.databases,
      allocation_limit: body.feature_limits.allocations ?? null,
      backup_limit: body.feature_limits.backups,
      skip_scripts: body.skip_scripts === true ? 1 : 0,
    };
    return insertServer(
      trx,
      fields,
      values,
      async (serverId) => {
        if (!explicit) {
          if (!target) throw notFound();
          return (await target.take(serverId)).id;
        }
        const ids = [explicit.primary, ...explicit.additional];
        // Checked free above in this same transaction; never a half-assigned server if that check changes.
        if ((await applicationServers.assignFree(trx, ids, serverId)) !== ids.length)
          throw validationError('allocation.default', INVALID('allocation.default'), 'unassigned');
        return explicit.primary;
      },
      now,
    );
  });
  const node = await nodes.findById(db, server.node_id);
  if (!node) throw notFound();
  const installed = await installServer(db, daemons.forNode(node), server, now);
  if (body.start_on_completion === true && installed.status === null) {
    // The reference's node starts it once installed; a refusal leaves it installed and offline.
    await daemons
      .forNode(node)
      .process?.power(installed.uuid, 'start')
      .catch(() => undefined);
  }
  return installed;
}

function deployment(body: ApplicationServerCreate, deploy: NonNullable<ApplicationServerCreate['deploy']>): DeploymentRequest {
  return {
    locations: deploy.locations,
    dedicatedIp: deploy.dedicated_ip,
    portRanges: deploy.port_range,
    memory: body.limits.memory,
    disk: body.limits.disk,
  };
}

/** `allocation.default` and `additional`: free allocations, the extra ones on the default's node. */
async function namedAllocations(db: Db, body: ApplicationServerCreate): Promise<{ nodeId: number; primary: number; additional: number[] }> {
  const primaryId = body.allocation?.default;
  if (primaryId === undefined) throw validationError('allocation.default', 'The allocation.default field is required.', 'required');
  const additional = [...new Set(body.allocation?.additional ?? [])].filter((id) => id !== primaryId);
  const found = new Map((await applicationServers.allocationsByIds(db, [primaryId, ...additional])).map((a) => [a.id, a]));
  const primary = found.get(primaryId);
  if (!primary || primary.server_id !== null) throw validationError('allocation.default', INVALID('allocation.default'), 'unassigned');
  const failures = (body.allocation?.additional ?? []).flatMap((id, index) => {
    const a = found.get(id);
    return id !== primaryId && (!a || a.server_id !== null || a.node_id !== primary.node_id)
      ? [{ field: `allocation.additional.${index}`, detail: INVALID(`allocation.additional.${index}`) }]
      : [];
  });
  if (failures.length > 0) throw validationErrors(failures, 'unassigned');
  return { nodeId: primary.node_id, primary: primaryId, additional };
}
