import { APPLICATION_SERVER_INCLUDES, type ApplicationResource, type ApplicationServer, type ApplicationServerInclude } from '../../src/contract';
import type { AppDeps } from '../deps';
import { allocations, applicationServers, eggs, nodeListing, nodes, servers, subusers, users } from '../db/repos';
import type { ServerRow } from '../db/schema';
import { panelOrigin } from '../config';
import { environmentOf, serverAttributes } from '../services/application-server-items';
import { eggResource } from './application-egg-resources';
import { allocationResource, locationResource, mayRead, nodeResource, NULL_RESOURCE } from './application-resources';
import { notFound } from '../http/errors';
import type { Caller } from '../services/authentication';
import { RESOURCE_MISSING, userResource } from './application-users';

/*
 * The reference's `server` resource (ServerTransformer) and its `include=` relationships. Each
 * include is shown only to a caller that may read its own resource (an application key without
 * `nodes` gets a null resource for `include=node`), as the reference authorizes them.
 */

type RelatedItem = { object: string; attributes: Record<string, unknown> };
type Related = RelatedItem | { object: 'list'; data: RelatedItem[] } | NullResource;
type NullResource = typeof NULL_RESOURCE;

const INCLUDE_RESOURCE: Record<ApplicationServerInclude, ApplicationResource> = {
  allocations: 'allocations',
  user: 'users',
  subusers: 'users',
  egg: 'eggs',
  variables: 'servers',
  location: 'locations',
  node: 'nodes',
};

/** The includes asked for that the reference offers (`include=egg,user`); others are ignored, as there. */
export function includesOf(include: string | undefined): ApplicationServerInclude[] {
  const asked = (include ?? '').split(',').map((s) => s.trim());
  return APPLICATION_SERVER_INCLUDES.filter((name) => asked.includes(name));
}

/** The server's variables with their values, and `container.environment`. */
async function variablesOf(deps: AppDeps, server: ServerRow, location: string | undefined) {
  const [rows, values] = await Promise.all([eggs.variablesOf(deps.db, [server.egg_id]), servers.variableValues(deps.db, [server.id])]);
  const variables = rows.map((row) => ({ row, value: values.get(`${server.id}:${row.id}`) ?? row.default_value }));
  const environment = environmentOf(
    server,
    variables.map((v) => ({ env_variable: v.row.env_variable, value: v.value })),
    location,
  );
  return { variables, environment };
}

export async function applicationServerResource(
  deps: AppDeps,
  server: ServerRow,
  caller: Caller,
  include: readonly ApplicationServerInclude[] = [],
): Promise<{ object: 'server'; attributes: ApplicationServer }> {
  const location = await applicationServers.locationOfNode(deps.db, server.node_id);
  const { variables, environment } = await variablesOf(deps, server, location?.short);
  const nest = (await eggs.findById(deps.db, server.egg_id))?.nest_id ?? undefined;
  const relationships: Record<string, Related> = {};
  for (const name of include) {
    if (!mayRead(caller, INCLUDE_RESOURCE[name])) {
      relationships[name] = NULL_RESOURCE;
      continue;
    }
    relationships[name] = await related(deps, server, name, { variables, location });
  }
  return {
    object: 'server',
    attributes: {
      ...serverAttributes(server, environment, nest),
      ...(include.length > 0 ? { relationships } : {}),
    },
  };
}

async function related(
  deps: AppDeps,
  server: ServerRow,
  name: ApplicationServerInclude,
  loaded: Pick<Awaited<ReturnType<typeof variablesOf>>, 'variables'> & { location: Awaited<ReturnType<typeof applicationServers.locationOfNode>> },
): Promise<Related> {
  const list = (data: RelatedItem[]): Related => ({ object: 'list', data });
  switch (name) {
    case 'allocations':
      return list((await allocations.ofServers(deps.db, [server.id])).map((a) => allocationResource(a)));
    case 'user': {
      const owner = await users.findById(deps.db, server.owner_id);
      return owner ? userResource(owner) : NULL_RESOURCE;
    }
    case 'subusers':
      return list(
        (await subusers.ofServer(deps.db, server.id)).map((s) => ({
          object: 'subuser',
          attributes: {
            id: s.id,
            user_id: s.user_id,
            server_id: s.server_id,
            permissions: s.permissions,
            created_at: s.created_at,
            updated_at: s.updated_at,
          },
        })),
      );
    case 'egg': {
      const egg = await eggs.findById(deps.db, server.egg_id);
      return egg ? eggResource(egg) : NULL_RESOURCE;
    }
    case 'variables':
      return list(
        loaded.variables.map(({ row, value }) => ({
          object: 'server_variable',
          attributes: {
            id: row.id,
            egg_id: row.egg_id,
            name: row.name,
            description: row.description,
            env_variable: row.env_variable,
            default_value: row.default_value,
            user_viewable: row.user_viewable === 1,
            user_editable: row.user_editable === 1,
            rules: row.rules,
            server_value: value,
          },
        })),
      );
    case 'location':
      return loaded.location ? locationResource(loaded.location) : NULL_RESOURCE;
    case 'node': {
      const node = await nodes.findById(deps.db, server.node_id);
      if (!node) return NULL_RESOURCE;
      const allocated = await nodeListing.allocatedResources(deps.db, [node.id]);
      return nodeResource(node, allocated.get(node.id), { panelOrigin: panelOrigin(deps.config) });
    }
  }
}

/** The server a route's `:server` names (a numeric id, as the reference binds it), or 404. */
export async function boundServer(deps: AppDeps, param: unknown): Promise<ServerRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const server = id === null ? undefined : await servers.findById(deps.db, id);
  if (!server) throw notFound(RESOURCE_MISSING);
  return server;
}
