import type { z } from 'zod';
import type { Db } from '../db';
import { allocations, eggs, nodes, servers as serverRepo, subusers, users } from '../db/repos';
import type { Egg } from '../db/repos/eggs';
import { serverRuntime } from './server-runtime';
import type { AllocationRow, EggVariableRow, NodeRow, ServerRow } from '../db/schema';
import {
  permits,
  type allocationSchema,
  type eggVariableSchema,
  type PermissionCheck,
  type serverSchema,
  type serverWithMetaSchema,
} from '../../src/contract';
import type { NodeHealthMonitor } from './node-health';
import type { ServerAccess } from './access';

/*
 * The `server` resource. Servers are rendered in batches: a page
 * of 50 costs the same handful of queries as one server, never one query per server.
 */

export type ServerResource = z.infer<typeof serverSchema>;
export type ServerWithMeta = z.infer<typeof serverWithMetaSchema>;
type AllocationResource = z.infer<typeof allocationSchema>;
type EggVariableResource = z.infer<typeof eggVariableSchema>;

/** Who is looking: decides `server_owner`, which allocations are listed and which values show. */
export interface ServerViewer {
  userId: number;
  isAdmin: boolean;
}

type Can = (permission: PermissionCheck) => boolean;

interface Related {
  nodes: Map<number, NodeRow>;
  eggs: Map<number, Egg>;
  eggVariables: Map<number, EggVariableRow[]>;
  values: Map<string, string>;
  allocations: Map<number, AllocationRow[]>;
  /** Loaded for admins only, who see servers of every user. */
  owners: Map<number, { username: string; email: string }>;
}

const HIDDEN = '[hidden]';

/** Renders servers for a viewer; owners and admins hold every permission, subusers their stored ones. */
export async function renderServers(db: Db, servers: readonly ServerRow[], viewer: ServerViewer): Promise<ServerResource[]> {
  if (servers.length === 0) return [];
  const needsSubuserRows = !viewer.isAdmin && servers.some((s) => s.owner_id !== viewer.userId);
  const granted = needsSubuserRows
    ? await subusers.permissionsOn(
        db,
        viewer.userId,
        servers.map((s) => s.id),
      )
    : new Map<number, readonly string[]>();
  const related = await loadRelated(db, servers, viewer.isAdmin);
  return servers.map((server) => {
    const full = viewer.isAdmin || server.owner_id === viewer.userId;
    const perms = granted.get(server.id) ?? [];
    return toResource(server, related, viewer, (p) => full || permits(perms, p));
  });
}

/** The single-server view with `meta` (GET /api/client/servers/{server}), from an access check. */
export async function renderServerWithMeta(db: Db, access: ServerAccess, health?: Pick<NodeHealthMonitor, 'get'>): Promise<ServerWithMeta> {
  const viewer = { userId: access.caller.user.id, isAdmin: access.isAdmin };
  const related = await loadRelated(db, [access.server], viewer.isAdmin);
  const resource = toResource(access.server, related, viewer, access.can);
  // What the panel last heard from a remote node: for root admins, who can do something about it.
  const nodeHealth = access.isAdmin ? health?.get(access.server.node_id) : undefined;
  return {
    ...resource,
    attributes: nodeHealth ? { ...resource.attributes, aerie_node_health: nodeHealth } : resource.attributes,
    meta: { is_server_owner: access.isOwner, user_permissions: access.reported },
  };
}

async function loadRelated(db: Db, servers: readonly ServerRow[], withOwners: boolean): Promise<Related> {
  const ids = servers.map((s) => s.id);
  const nodeIds = [...new Set(servers.map((s) => s.node_id))];
  const eggIds = [...new Set(servers.map((s) => s.egg_id))];
  const ownerIds = withOwners ? [...new Set(servers.map((s) => s.owner_id))] : [];
  const [nodeRows, eggRows, eggVariables, values, allocationRows, ownerRows] = await Promise.all([
    nodes.findByIds(db, nodeIds),
    eggs.findByIds(db, eggIds),
    eggs.variablesOf(db, eggIds),
    serverRepo.variableValues(db, ids),
    allocations.ofServers(db, ids),
    users.namesByIds(db, ownerIds),
  ]);
  return {
    nodes: new Map(nodeRows.map((n) => [n.id, n])),
    eggs: new Map(eggRows.map((e) => [e.id, e])),
    eggVariables: groupBy(eggVariables, (v) => v.egg_id),
    values,
    allocations: groupBy(allocationRows, (a) => a.server_id ?? 0),
    owners: new Map(ownerRows.map((u) => [u.id, { username: u.username, email: u.email }])),
  };
}

function toResource(server: ServerRow, related: Related, viewer: ServerViewer, can: Can): ServerResource {
  const node = related.nodes.get(server.node_id);
  const egg = related.eggs.get(server.egg_id);
  const allocations = related.allocations.get(server.id) ?? [];
  const primary = allocations.find((a) => a.id === server.allocation_id);
  const variables = (related.eggVariables.get(server.egg_id) ?? []).map((v) => ({
    row: v,
    // A server without its own value runs with the egg default, so that is what it shows.
    value: related.values.get(`${server.id}:${v.id}`) ?? v.default_value,
  }));
  const canReadStartup = can('startup.read');
  const invocation = fillStartup(server.startup, server.memory, primary, variables, canReadStartup);
  const shownAllocations = can('allocation.read') ? allocations : primary ? [primary] : [];
  const hideNotes = !can('allocation.read');
  const owner = related.owners.get(server.owner_id);

  return {
    object: 'server',
    attributes: {
      server_owner: server.owner_id === viewer.userId,
      identifier: server.uuid_short,
      __deprecated_uuid_short: server.uuid_short,
      server_identifier: server.uuid_short,
      internal_id: server.id,
      uuid: server.uuid,
      name: server.name,
      node: node?.name ?? '',
      is_node_under_maintenance: node?.maintenance_mode === 1,
      sftp_details: { ip: node?.fqdn ?? '', port: node?.sftp_port ?? 2022 },
      description: server.description,
      limits: {
        memory: server.memory,
        swap: server.swap,
        disk: server.disk,
        io: server.io,
        cpu: server.cpu,
        threads: server.threads ?? '',
        oom_disabled: server.oom_disabled === 1,
      },
      invocation,
      docker_image: server.docker_image,
      egg_features: egg ? egg.features : [],
      feature_limits: { databases: server.database_limit, allocations: server.allocation_limit, backups: server.backup_limit },
      status: server.status,
      is_suspended: server.status === 'suspended',
      is_installing: server.status === 'installing' || server.status === 'install_failed',
      is_transferring: server.is_transferring === 1,
      // Aerie's extension, for admins only: whose server this is (the client API has no such field).
      ...(owner ? { aerie_owner: owner } : {}),
      ...runtimeOf(server, node, egg),
      relationships: {
        allocations: {
          object: 'list',
          data: shownAllocations.map((a) => allocationResource(a, a.id === server.allocation_id, hideNotes)),
        },
        // Without startup.read the reference panel withholds the whole relationship.
        variables: canReadStartup
          ? {
              object: 'list',
              data: variables.filter((v) => v.row.user_viewable === 1).map((v) => variableResource(v.row, v.value, invocation, server.startup)),
              meta: {
                startup_command: invocation,
                docker_images: egg ? egg.docker_images : {},
                raw_startup_command: server.startup,
              },
            }
          : { object: 'null_resource', attributes: null },
      },
    },
  };
}

/** The allocation resource; exported for the network routes. */
export function allocationResource(a: AllocationRow, isDefault: boolean, hideNotes = false): AllocationResource {
  return {
    object: 'allocation',
    attributes: {
      id: a.id,
      ip: a.ip,
      // The spec types both as strings: an allocation without an alias is reached by its IP.
      ip_alias: a.ip_alias ?? a.ip,
      port: a.port,
      notes: hideNotes ? '' : (a.notes ?? ''),
      is_default: isDefault,
    },
  };
}

/** The egg_variable resource; exported for the startup routes. */
export function variableResource(v: EggVariableRow, value: string, startup: string, raw: string): EggVariableResource {
  return {
    object: 'egg_variable',
    attributes: {
      name: v.name,
      description: v.description,
      env_variable: v.env_variable,
      default_value: v.default_value,
      server_value: value,
      is_editable: v.user_editable === 1,
      rules: v.rules,
    },
    meta: { startup_command: startup, raw_startup_command: raw },
  };
}

/**
 * The startup line with placeholders filled as the reference panel does: memory, IP and port
 * always; each egg variable only when the viewer may read startup and the egg lets users see it.
 */
export function fillStartup(
  startup: string,
  memory: number,
  primary: AllocationRow | undefined,
  variables: readonly { row: EggVariableRow; value: string }[],
  canReadStartup: boolean,
): string {
  // split/join replaces literally: values may contain `$&` or other replacement patterns.
  let out = startup
    .split('{{SERVER_MEMORY}}')
    .join(String(memory))
    .split('{{SERVER_IP}}')
    .join(primary?.ip ?? '')
    .split('{{SERVER_PORT}}')
    .join(primary ? String(primary.port) : '');
  for (const { row, value } of variables) {
    const shown = canReadStartup && row.user_viewable === 1 ? value : HIDDEN;
    out = out.split(`{{${row.env_variable}}}`).join(shown);
  }
  return out;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const bucket = map.get(k);
    if (bucket) bucket.push(row);
    else map.set(k, [row]);
  }
  return map;
}

function runtimeOf(...args: Parameters<typeof serverRuntime>): Pick<ServerResource['attributes'], 'aerie_runtime'> {
  const runtime = serverRuntime(...args);
  return runtime ? { aerie_runtime: runtime } : {};
}
