import type { ApplicationServer } from '../../src/contract/admin-servers';
import type { Db } from '../db';
import { applicationServers, eggs, servers as serverRepo } from '../db/repos';
import type { ServerRow } from '../db/schema';

/*
 * The application API's `server` (the reference's ServerTransformer), one builder for the
 * servers routes, a user's `include=servers` and a location's or node's `include=servers`.
 */

// A server's nest is its egg's; an egg from before nests (020) is in the first one.
export const NEST_ID = 1;

export type ServerItem = { object: 'server'; attributes: ApplicationServer };

/**
 * `container.environment`, as the reference's EnvironmentService builds it: the egg's variables
 * (the server's values over the defaults), then STARTUP, P_SERVER_LOCATION, P_SERVER_UUID and
 * P_SERVER_ALLOCATION_LIMIT.
 */
export function environmentOf(server: ServerRow, variables: readonly { env_variable: string; value: string }[], location: string | undefined) {
  const environment: Record<string, string> = {};
  for (const v of variables) environment[v.env_variable] = v.value;
  return Object.assign(environment, {
    STARTUP: server.startup,
    P_SERVER_LOCATION: location ?? '',
    P_SERVER_UUID: server.uuid,
    P_SERVER_ALLOCATION_LIMIT: String(server.allocation_limit ?? 0),
  });
}

/** The attributes of a server, without relationships. */
export function serverAttributes(server: ServerRow, environment: Record<string, string>, nest = NEST_ID): ApplicationServer {
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
    nest,
    egg: server.egg_id,
    container: {
      startup_command: server.startup,
      image: server.docker_image,
      // The reference's isInstalled(): a failed reinstall still counts as installed.
      installed: server.status === 'installing' || server.status === 'install_failed' ? 0 : 1,
      environment,
      skip_scripts: server.skip_scripts === 1,
    },
    created_at: server.created_at,
    updated_at: server.updated_at,
  };
}

/** Servers as items, in their order: their variables and locations read once for all. */
export async function serverItems(db: Db, rows: readonly ServerRow[]): Promise<ServerItem[]> {
  const nodeIds = [...new Set(rows.map((s) => s.node_id))];
  const eggIds = [...new Set(rows.map((s) => s.egg_id))];
  const [variables, values, places, eggRows] = await Promise.all([
    eggs.variablesOf(db, eggIds),
    serverRepo.variableValues(
      db,
      rows.map((s) => s.id),
    ),
    Promise.all(nodeIds.map(async (id) => [id, (await applicationServers.locationOfNode(db, id))?.short] as const)),
    eggs.findByIds(db, eggIds),
  ]);
  const nestOf = new Map(eggRows.map((e) => [e.id, e.nest_id ?? NEST_ID]));
  const locationOf = new Map(places);
  return rows.map((server) => {
    const own = variables
      .filter((v) => v.egg_id === server.egg_id)
      .map((v) => ({ env_variable: v.env_variable, value: values.get(`${server.id}:${v.id}`) ?? v.default_value }));
    return {
      object: 'server',
      attributes: serverAttributes(server, environmentOf(server, own, locationOf.get(server.node_id)), nestOf.get(server.egg_id)),
    };
  });
}

/** Each user's servers, oldest first (an empty list for a user who owns none). */
export async function serversOwnedBy(db: Db, userIds: readonly number[]): Promise<Map<number, ServerItem[]>> {
  const owned = (await Promise.all(userIds.map((id) => serverRepo.ownedBy(db, id)))).flat();
  const result = new Map<number, ServerItem[]>(userIds.map((id) => [id, []]));
  for (const item of await serverItems(db, owned)) result.get(item.attributes.user)?.push(item);
  return result;
}
