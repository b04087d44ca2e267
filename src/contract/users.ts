import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, paginatedMetaSchema } from './envelope';
import { filterText, pageNumber, perPage, timestamp } from './fields';

/*
 * Accounts, as the application API shows them to root admins and billing systems (the reference
 * panel's `user` resource, `/api/application/users`). A server's subusers are `subusers.ts`.
 */

export const userAttributes = z.object({
  id: z.int(),
  external_id: z.nullable(z.string()),
  uuid: z.uuid(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: z.string(),
  root_admin: z.boolean(),
  '2fa': z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type User = z.infer<typeof userAttributes>;
export const userSchema = item('user', userAttributes);
export const userListSchema = list(userSchema, paginatedMetaSchema);

// The user list: 50 a page by default (the reference's), filters and sort as the reference allows.
export const USER_LIST_FILTERS = ['filter[email]', 'filter[uuid]', 'filter[username]', 'filter[external_id]'] as const;
export const USER_SORTS = ['id', '-id', 'uuid', '-uuid'] as const;
export const userListQuerySchema = z.object({
  page: pageNumber,
  per_page: perPage(50, 100),
  'filter[email]': filterText,
  'filter[uuid]': filterText,
  'filter[username]': filterText,
  'filter[external_id]': filterText,
  sort: z.optional(z.enum(USER_SORTS, { error: 'The sort must be one of id, uuid (with - for descending).' })),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

const usersPath = `${ADMIN_ROUTE_PREFIX}/users`;

export const userEndpoints = {
  list: endpoint({ method: 'GET', path: usersPath, query: userListQuerySchema, response: userListSchema, admin: true, resource: 'users' }),
  view: endpoint({ method: 'GET', path: `${usersPath}/:user`, response: userSchema, admin: true, resource: 'users' }),
  external: endpoint({ method: 'GET', path: `${usersPath}/external/:external_id`, response: userSchema, admin: true, resource: 'users' }),
};
