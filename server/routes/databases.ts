import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseEndpoints } from '../../src/contract';
import type { AppDeps } from '../deps';
import { loadSecretBox } from '../lib/secret-box';
import { serverRoute } from '../http/routes';
import {
  createDatabase,
  databaseOf,
  databaseResource,
  deleteDatabase,
  hasDatabaseHost,
  HostUnavailable,
  listDatabases,
  rotateDatabasePassword,
} from '../services/server-databases';

/*
 * A server's databases on the database hosts (reference panel: DatabaseController). Passwords go
 * out only with `include=password` on the list (always on create and rotate), and only to callers
 * with `database.view_password`; activity names the database, never a password.
 */
export async function databaseRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock } = deps;
  const box = loadSecretBox(deps.config.dataDir);
  const idOf = (request: FastifyRequest) => (request.params as { database: string }).database;
  // Why a host failed is for the operator's log; the client gets the 503 without the host's details.
  const logged = async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HostUnavailable) request.log.warn(`database host: ${error.reason}`);
      throw error;
    }
  };

  await serverRoute(
    app,
    deps,
    databaseEndpoints.list,
  )(async ({ server, query, access }) => {
    const password = { include: query.include.includes('password'), visible: access.can('database.view_password'), box };
    return {
      object: 'list' as const,
      data: (await listDatabases(db, server)).map(({ row, host }) => databaseResource(row, host, password)),
      meta: { has_database_host: await hasDatabaseHost(db) },
    };
  });

  await serverRoute(
    app,
    deps,
    databaseEndpoints.create,
  )(async ({ request, server, body, access, activity }) => {
    const { row, host } = await logged(request, () => createDatabase(db, box, server, body, clock.now()));
    await activity('server:database.create', { name: row.database }, [{ type: 'database', id: row.id }]);
    return databaseResource(row, host, { include: true, visible: access.can('database.view_password'), box });
  });

  await serverRoute(
    app,
    deps,
    databaseEndpoints.rotatePassword,
  )(async ({ request, server, access, activity }) => {
    const target = await databaseOf(db, server, idOf(request));
    const row = await logged(request, () => rotateDatabasePassword(db, box, target, clock.now()));
    await activity('server:database.rotate-password', { name: row.database }, [{ type: 'database', id: row.id }]);
    return databaseResource(row, target.host, { include: true, visible: access.can('database.view_password'), box });
  });

  await serverRoute(
    app,
    deps,
    databaseEndpoints.delete,
  )(async ({ request, server, activity }) => {
    const target = await databaseOf(db, server, idOf(request));
    await logged(request, () => deleteDatabase(db, box, target));
    await activity('server:database.delete', { name: target.row.database }, [{ type: 'database', id: target.row.id }]);
  });
}
