import type * as z from 'zod/mini';
import type { userServerAttributes } from '../../src/contract/users';
import type { Db } from '../db';
import { eggs, servers as serverRepo } from '../db/repos';
import type { ServerRow } from '../db/schema';

/*
 * The servers a user owns, as the application API's `include=servers` shows them: the reference's
 * application server transformer, with the fields Aerie has. Its environment is the reference's
 * EnvironmentService without P_SERVER_LOCATION: the egg's variables (the server's values over the
 * defaults), then STARTUP, P_SERVER_UUID and P_SERVER_ALLOCATION_LIMIT.
 */

type UserServer = { object: 'server'; attributes: z.infer<typeof userServerAttributes> };

/** Each user's servers, oldest first (an empty list for a user who owns none). */
export async function serversOwnedBy(db: Db, userIds: readonly number[]): Promise<Map<number, UserServer[]>> {
  const owned = (await Promise.all(userIds.map((id) => serverRepo.ownedBy(db, id)))).flat();
  const [variables, values] = await Promise.all([
    eggs.variablesOf(db, [...new Set(owned.map((s) => s.egg_id))]),
    serverRepo.variableValues(
      db,
      owned.map((s) => s.id),
    ),
  ]);
  const result = new Map<number, UserServer[]>(userIds.map((id) => [id, []]));
  for (const server of owned) {
    const environment: Record<string, string | number | null> = {};
    for (const v of variables) if (v.egg_id === server.egg_id) environment[v.env_variable] = values.get(`${server.id}:${v.id}`) ?? v.default_value;
    Object.assign(environment, { STARTUP: server.startup, P_SERVER_UUID: server.uuid, P_SERVER_ALLOCATION_LIMIT: server.allocation_limit });
    result.get(server.owner_id)?.push({ object: 'server', attributes: serverAttributes(server, environment) });
  }
  return result;
}

function serverAttributes(server: ServerRow, environment: Record<string, string | number | null>): UserServer['attributes'] {
  return {
    id: server.id,
    external_id: server.external_id,
    uuid: server.uuid,
    identifier: server.uuid_short,
    name: server.name,
    description: server.description,
    status: server.status,
    suspended: server.status === 'suspended',
    limits: {
      memory: server.memory,
      swap: server.swap,
      disk: server.disk,
      io: server.io,
      cpu: server.cpu,
      threads: server.threads,
      oom_disabled: server.oom_disabled === 1,
    },
    feature_limits: { databases: server.database_limit, allocations: server.allocation_limit, backups: server.backup_limit },
    user: server.owner_id,
    node: server.node_id,
    allocation: server.allocation_id,
    egg: server.egg_id,
    container: {
      startup_command: server.startup,
      image: server.docker_image,
      // The reference's isInstalled(): a failed reinstall still counts as installed.
      installed: server.status === 'installing' || server.status === 'install_failed' ? 0 : 1,
      environment,
      skip_scripts: false,
    },
    updated_at: server.updated_at,
    created_at: server.created_at,
  };
}
