import type { FastifyInstance } from 'fastify';
import { databaseHostEndpoints } from '../../src/contract/admin-database-hosts';
import type { AppDeps } from '../deps';
import { databaseHosts } from '../db/repos';
import type { DatabaseHostRow } from '../db/schema';
import { badRequest, notFound, validationError, type HttpError } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { isoOffset } from '../lib/time';
import { adminActivity, logActivity } from '../services/activity';
import type { Caller } from '../services/authentication';
import { createHost, DatabaseHostError, HostRuleError, hostFailureMeaning, removeHost, testHost, updateHost } from '../services/database-host-admin';
import { RESOURCE_MISSING } from './application-users';

/*
 * Database hosts (`/api/application/database-hosts`): list with usage, add and change (the host
 * is tried first), test the stored account, delete while no database lives on it. The admin
 * password goes in and never comes back out.
 */

function hostResource(row: DatabaseHostRow, databases: number) {
  return {
    object: 'database_host' as const,
    attributes: {
      id: row.id,
      name: row.name,
      host: row.host,
      port: row.port,
      username: row.username,
      node: row.node_id,
      max_databases: row.max_databases,
      databases,
      created_at: isoOffset(row.created_at),
      updated_at: isoOffset(row.updated_at),
    },
  };
}

async function boundHost(deps: AppDeps, param: unknown): Promise<DatabaseHostRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const row = id === null ? undefined : await databaseHosts.findById(deps.db, id);
  if (!row) throw notFound(RESOURCE_MISSING);
  return row;
}

/** A refused check or rule as the answer: the host's meaning (400), or the field it is about (422). */
function refusal(error: unknown, access: { host: string; port: number; username: string }): HttpError | unknown {
  if (error instanceof HostRuleError)
    return error.field ? validationError(error.field, error.message) : badRequest(error.message, 'DisplayException');
  if (error instanceof DatabaseHostError) return badRequest(hostFailureMeaning(error, access), 'DisplayException');
  return error;
}

export async function applicationDatabaseHostRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock } = deps;
  const box = loadSecretBox(deps.config.dataDir);
  const countOf = async (id: number) => (await databaseHosts.databaseCounts(db)).get(id) ?? 0;
  const log = (
    caller: Caller,
    ip: string,
    event: 'admin:database-host.create' | 'admin:database-host.update' | 'admin:database-host.delete',
    row: DatabaseHostRow,
    extra: Record<string, unknown> = {},
  ) =>
    logActivity(
      db,
      adminActivity(caller, ip, event, { name: row.name, host: row.host, ...extra }, clock.now(), [{ type: 'database_host', id: row.id }]),
    );

  await adminRoute(
    app,
    databaseHostEndpoints.list,
  )(async ({ request, query }) => {
    const counts = await databaseHosts.databaseCounts(db);
    const needle = query['filter[name]']?.toLowerCase();
    const rows = (await databaseHosts.all(db)).filter((r) => !needle || r.name.toLowerCase().includes(needle));
    const page = rows.slice((query.page - 1) * query.per_page, query.page * query.per_page);
    return paginatedList(
      request,
      deps.config.appUrl,
      page.map((r) => hostResource(r, counts.get(r.id) ?? 0)),
      rows.length,
      query,
    );
  });

  await adminRoute(
    app,
    databaseHostEndpoints.view,
  )(async ({ request }) => {
    const row = await boundHost(deps, (request.params as { host: string }).host);
    return hostResource(row, await countOf(row.id));
  });

  await adminRoute(
    app,
    databaseHostEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const row = await createHost(db, box, body, clock.now()).catch((error: unknown) => {
      throw refusal(error, body);
    });
    await log(caller, request.ip, 'admin:database-host.create', row);
    reply.status(201);
    return hostResource(row, 0);
  });

  await adminRoute(
    app,
    databaseHostEndpoints.update,
  )(async ({ request, caller, body }) => {
    const before = await boundHost(deps, (request.params as { host: string }).host);
    const row = await updateHost(db, box, before, body, clock.now()).catch((error: unknown) => {
      throw refusal(error, { host: body.host ?? before.host, port: body.port ?? before.port, username: body.username ?? before.username });
    });
    const changed = Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined);
    await log(caller, request.ip, 'admin:database-host.update', row, { changed });
    return hostResource(row, await countOf(row.id));
  });

  await adminRoute(
    app,
    databaseHostEndpoints.test,
  )(async ({ request }) => {
    const row = await boundHost(deps, (request.params as { host: string }).host);
    await testHost(row, box).catch((error: unknown) => {
      throw refusal(error, row);
    });
    return { object: 'database_host_test' as const, attributes: { ok: true as const } };
  });

  await adminRoute(
    app,
    databaseHostEndpoints.delete,
  )(async ({ request, caller }) => {
    const row = await boundHost(deps, (request.params as { host: string }).host);
    await removeHost(db, row).catch((error: unknown) => {
      throw refusal(error, row);
    });
    await log(caller, request.ip, 'admin:database-host.delete', row);
  });
}
