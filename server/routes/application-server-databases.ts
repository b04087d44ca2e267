import type { FastifyInstance, FastifyRequest } from 'fastify';
import { applicationDatabaseEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { databaseHosts } from '../db/repos';
import type { DatabaseHostRow, ServerDatabaseRow } from '../db/schema';
import { notFound, validationError } from '../http/errors';
import { adminRoute } from '../http/routes';
import { loadSecretBox, type SecretBox } from '../lib/secret-box';
import { adminActivity, logActivity } from '../services/activity';
import type { Caller } from '../services/authentication';
import { createDatabase, databaseOf, deleteDatabase, listDatabases, rotateDatabasePassword } from '../services/server-databases';
import { boundServer } from './application-server-resource';
import { RESOURCE_MISSING } from './application-users';

/*
 * The application API's server databases (the reference's Application\Servers\DatabaseController):
 * list, view, create on the host named, reset the password, delete. The host is changed first
 * and the record follows (`services/server-databases.ts`); each write is an admin event.
 */

type Target = { row: ServerDatabaseRow; host: DatabaseHostRow };

function mayRead(caller: Caller, resource: 'server_databases' | 'database_hosts'): boolean {
  return caller.sessionId !== null || ((caller.applicationGrants?.[resource] ?? 0) & 1) === 1;
}

function databaseResource(target: Target, caller: Caller, include: string | undefined, box: SecretBox) {
  const asked = (include ?? '').split(',').map((s) => s.trim());
  const { row, host } = target;
  const relationships: Record<string, { object: string; attributes: Record<string, unknown> } | { object: 'null_resource'; attributes: null }> = {};
  const withheld = { object: 'null_resource' as const, attributes: null };
  if (asked.includes('password')) {
    relationships.password = mayRead(caller, 'server_databases')
      ? { object: 'database_password', attributes: { password: box.open(row.password) } }
      : withheld;
  }
  if (asked.includes('host')) {
    relationships.host = mayRead(caller, 'database_hosts')
      ? {
          object: 'database_host',
          attributes: { id: host.id, name: host.name, host: host.host, port: host.port, username: host.username, node: host.node_id },
        }
      : withheld;
  }
  return {
    object: 'server_database' as const,
    attributes: {
      id: row.id,
      server: row.server_id,
      host: row.database_host_id,
      database: row.database,
      username: row.username,
      remote: row.remote,
      max_connections: row.max_connections,
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
    },
  };
}

const params = (request: FastifyRequest) => request.params as { server: string; database?: string };

export async function applicationDatabaseRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const endpoints = applicationDatabaseEndpoints;
  const box = loadSecretBox(deps.config.dataDir);
  const bound = async (request: FastifyRequest) => {
    const server = await boundServer(deps, params(request).server);
    const target = await databaseOf(deps.db, server, params(request).database ?? '').catch(() => {
      throw notFound(RESOURCE_MISSING);
    });
    return { server, target };
  };
  const event = (request: FastifyRequest, caller: Caller, name: 'create' | 'rotate-password' | 'delete', target: Target) =>
    logActivity(
      deps.db,
      adminActivity(caller, request.ip, `admin:database.${name}`, { name: target.row.database }, deps.clock.now(), [
        { type: 'server', id: target.row.server_id },
        { type: 'database', id: target.row.id },
      ]),
    );

  await adminRoute(
    app,
    endpoints.list,
  )(async ({ request, caller, query }) => {
    const server = await boundServer(deps, params(request).server);
    const data = (await listDatabases(deps.db, server)).map((target) => databaseResource(target, caller, query.include, box));
    return { object: 'list' as const, data };
  });

  await adminRoute(
    app,
    endpoints.view,
  )(async ({ request, caller, query }) => databaseResource((await bound(request)).target, caller, query.include, box));

  await adminRoute(
    app,
    endpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const server = await boundServer(deps, params(request).server);
    const host = await databaseHosts.findById(deps.db, body.host);
    if (!host) throw validationError('host', 'The selected host is invalid.', 'exists');
    const target = await createDatabase(deps.db, box, server, { database: body.database, remote: body.remote }, deps.clock.now(), host);
    await event(request, caller, 'create', target);
    reply.status(201);
    return databaseResource(target, caller, undefined, box);
  });

  await adminRoute(
    app,
    endpoints.resetPassword,
  )(async ({ request, caller }) => {
    const { target } = await bound(request);
    await rotateDatabasePassword(deps.db, box, target, deps.clock.now());
    await event(request, caller, 'rotate-password', target);
  });

  await adminRoute(
    app,
    endpoints.delete,
  )(async ({ request, caller }) => {
    const { target } = await bound(request);
    await deleteDatabase(deps.db, box, target);
    await event(request, caller, 'delete', target);
  });
}
