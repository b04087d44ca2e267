import * as z from 'zod/mini';
import { ADMIN_ROUTE_PREFIX, endpoint } from './endpoint';
import { item, list, nullResourceSchema, paginatedMetaSchema } from './envelope';
import { filterText, nullableInt, nullableString, pageNumber, perPage, timestamp } from './fields';

/*
 * Accounts, as the application API shows them to root admins and billing systems (the reference
 * panel's `user` resource, `/api/application/users`). A server's subusers are `subusers.ts`.
 */

/*
 * A server in a user's `include=servers`: the fields of the reference's application server
 * transformer that Aerie has (no `nest`, `skip_scripts` always false).
 */
export const userServerAttributes = z.object({
  id: z.int(),
  external_id: nullableString,
  uuid: z.uuid(),
  identifier: z.string(),
  name: z.string(),
  description: z.string(),
  status: nullableString,
  suspended: z.boolean(),
  limits: z.object({
    memory: z.int(),
    swap: z.int(),
    disk: z.int(),
    io: z.int(),
    cpu: z.int(),
    threads: nullableString,
    oom_disabled: z.boolean(),
  }),
  feature_limits: z.object({ databases: nullableInt, allocations: nullableInt, backups: nullableInt }),
  user: z.int(),
  node: z.int(),
  allocation: nullableInt,
  egg: z.int(),
  container: z.object({
    startup_command: z.string(),
    image: z.string(),
    installed: z.union([z.literal(0), z.literal(1)]),
    environment: z.record(z.string(), z.union([z.string(), z.int(), z.null()])),
    skip_scripts: z.boolean(),
  }),
  updated_at: timestamp,
  created_at: timestamp,
});
export const userServerListSchema = z.object({ object: z.literal('list'), data: z.array(item('server', userServerAttributes)) });

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
  /** Only with `include=servers`; withheld (`null_resource`) from a key that cannot read servers. */
  relationships: z.optional(z.object({ servers: z.union([userServerListSchema, nullResourceSchema]) })),
});
export type User = z.infer<typeof userAttributes>;
export const userSchema = item('user', userAttributes);
/** The reference answers a create with the new user's address in `meta.resource`. */
export const userCreatedSchema = z.object({ ...userSchema.shape, meta: z.object({ resource: z.string() }) });

/** `include=servers` (comma-separated; other names are ignored, as the reference ignores them). */
const userInclude = z.pipe(
  z.optional(z.string().check(z.maxLength(100))),
  z.transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x === 'servers'),
  ),
);
export const userViewQuerySchema = z.object({ include: userInclude });
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
  include: userInclude,
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/*
 * Creating or changing a user, with the reference's rules (`User::$validationRules`; an update
 * needs the same fields). Without a password the new user is sent a link to set one.
 */
const name191 = (field: string) =>
  z
    .string({ error: `The ${field} field is required.` })
    .check(z.trim(), z.minLength(1, `The ${field} field is required.`), z.maxLength(191, `The ${field} must be between 1 and 191 characters.`));
export const userWriteSchema = z.object({
  external_id: z.optional(z.nullable(z.string().check(z.maxLength(191, 'The external id may not be greater than 191 characters.')))),
  email: z
    .string({ error: 'The email field is required.' })
    .check(
      z.trim(),
      z.maxLength(191, 'The email must be between 1 and 191 characters.'),
      z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'The email must be a valid email address.'),
    ),
  username: z
    .string({ error: 'The username field is required.' })
    .check(
      z.trim(),
      z.minLength(1, 'The username field is required.'),
      z.maxLength(191, 'The username must be between 1 and 191 characters.'),
      z.regex(
        /^[a-z0-9]([\w.-]*[a-z0-9])?$/,
        'The username may contain lowercase letters, digits, dots, dashes and underscores, starting and ending with a letter or digit.',
      ),
    ),
  first_name: name191('first name'),
  last_name: name191('last name'),
  password: z.optional(z.nullable(z.string().check(z.minLength(8, 'The password must be at least 8 characters.'), z.maxLength(4096)))),
  language: z.optional(z.string().check(z.regex(/^[a-z]{2}(?:[-_][A-Za-z]{2})?$/, 'The language must be a language code such as en.'))),
  root_admin: z.optional(z.boolean({ error: 'The root admin field must be true or false.' })),
});
export type UserWrite = z.infer<typeof userWriteSchema>;

/** A password link made for a user: `mailed`, or `link` to pass on when the panel sends no mail. */
export const passwordResetLinkSchema = z.object({ mailed: z.boolean(), link: z.optional(z.string()) });

const usersPath = `${ADMIN_ROUTE_PREFIX}/users`;

export const userEndpoints = {
  list: endpoint({ method: 'GET', path: usersPath, query: userListQuerySchema, response: userListSchema, admin: true, resource: 'users' }),
  view: endpoint({ method: 'GET', path: `${usersPath}/:user`, query: userViewQuerySchema, response: userSchema, admin: true, resource: 'users' }),
  external: endpoint({
    method: 'GET',
    path: `${usersPath}/external/:external_id`,
    query: userViewQuerySchema,
    response: userSchema,
    admin: true,
    resource: 'users',
  }),
  /** 201 with the user. */
  create: endpoint({ method: 'POST', path: usersPath, body: userWriteSchema, response: userCreatedSchema, admin: true, resource: 'users' }),
  update: endpoint({ method: 'PATCH', path: `${usersPath}/:user`, body: userWriteSchema, response: userSchema, admin: true, resource: 'users' }),
  /** Aerie's: turns off two-factor sign-in for a user locked out of it (204). */
  twoFactorDisable: endpoint({ method: 'DELETE', path: `${usersPath}/:user/two-factor`, response: 'empty', admin: true, resource: 'users' }),
  /**
   * Aerie's: a link for the user to set a new password, mailed to them; when the panel sends no
   * mail, the link is in the answer for the admin to pass on.
   */
  passwordReset: endpoint({
    method: 'POST',
    path: `${usersPath}/:user/password-reset`,
    response: passwordResetLinkSchema,
    admin: true,
    resource: 'users',
  }),
  /** Refused (400) while the user owns servers, naming them. */
  delete: endpoint({ method: 'DELETE', path: `${usersPath}/:user`, response: 'empty', admin: true, resource: 'users' }),
};
