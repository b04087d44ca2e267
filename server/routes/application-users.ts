import type { FastifyInstance } from 'fastify';
import { userEndpoints, type User } from '../../src/contract/users';
import type { AppDeps } from '../deps';
import { users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { notFound } from '../http/errors';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';

/*
 * The application API's users (`/api/application/users`), as the reference panel answers billing
 * systems: the list with its filters, sort and pages, one user by id or by external id.
 */

export const RESOURCE_MISSING = 'The requested resource does not exist on this server.';

export function userResource(row: UserRow): { object: 'user'; attributes: User } {
  return {
    object: 'user',
    attributes: {
      id: row.id,
      external_id: row.external_id,
      uuid: row.uuid,
      username: row.username,
      email: row.email,
      first_name: row.name_first,
      last_name: row.name_last,
      language: row.language,
      root_admin: row.root_admin === 1,
      '2fa': row.use_totp === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

/** The user a route's `:user` names (a numeric id, as the reference binds it), or 404. */
export async function boundUser(deps: AppDeps, param: unknown): Promise<UserRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const user = id === null ? undefined : await users.findById(deps.db, id);
  if (!user) throw notFound(RESOURCE_MISSING);
  return user;
}

export async function applicationUserRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await adminRoute(
    app,
    userEndpoints.list,
  )(async ({ request, query }) => {
    const sort = query.sort ?? 'id';
    const result = await users.page(deps.db, {
      filters: {
        email: query['filter[email]'],
        uuid: query['filter[uuid]'],
        username: query['filter[username]'],
        external_id: query['filter[external_id]'],
      },
      sort: { column: sort.replace('-', '') as 'id' | 'uuid', descending: sort.startsWith('-') },
      page: query.page,
      perPage: query.per_page,
    });
    return paginatedList(request, deps.config.appUrl, result.rows.map(userResource), result.total, query);
  });

  await adminRoute(app, userEndpoints.view)(async ({ request }) => userResource(await boundUser(deps, (request.params as { user: string }).user)));

  await adminRoute(
    app,
    userEndpoints.external,
  )(async ({ request }) => {
    const { external_id: externalId } = request.params as { external_id: string };
    const user = await users.findByExternalId(deps.db, externalId);
    if (!user) throw notFound(RESOURCE_MISSING);
    return userResource(user);
  });
}
