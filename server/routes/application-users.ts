import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userEndpoints, type User } from '../../src/contract/users';
import type { AppDeps } from '../deps';
import { users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { notFound } from '../http/errors';
import { mailedOrigin } from '../http/origin';
import { paginatedList } from '../http/pagination';
import { adminRoute } from '../http/routes';
import { loadSecretBox } from '../lib/secret-box';
import { checkAdminAccess } from '../services/access';
import { accountCreatedMail, passwordResetMail } from '../services/account-mail';
import { adminActivity, logActivities, logActivity, serverActivity, type ActivityInput } from '../services/activity';
import { serversOwnedBy } from '../services/application-server-items';
import { createAccount, deleteAccount, updateAccount } from '../services/admin-users';
import type { Caller } from '../services/authentication';
import { panelMailer } from '../services/panel-settings';
import { issueResetToken, resetLink } from '../services/password-reset';

/*
 * The application API's users (`/api/application/users`), as the reference panel answers billing
 * systems: the list with its filters, sort and pages, one user by id or by external id, each with
 * `include=servers`; create (201, with an invitation to set a password when none is given),
 * update, delete (refused while the user owns servers), and Aerie's two for the admin area,
 * two-factor off and a password link. Each write logs its admin event with the user as subject.
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

type UserResource = ReturnType<typeof userResource>;

/**
 * The users with their servers in `attributes.relationships.servers` when `include` asks for them;
 * a key that cannot read servers gets the reference's null resource instead.
 */
export async function withIncludes(deps: AppDeps, caller: Caller, rows: readonly UserRow[], include: readonly string[]): Promise<UserResource[]> {
  const resources = rows.map(userResource);
  if (!include.includes('servers')) return resources;
  if (!canRead(caller, 'servers')) {
    return resources.map((r) => ({
      ...r,
      attributes: { ...r.attributes, relationships: { servers: { object: 'null_resource', attributes: null } } },
    }));
  }
  const owned = await serversOwnedBy(
    deps.db,
    rows.map((r) => r.id),
  );
  return resources.map((r) => ({
    ...r,
    attributes: { ...r.attributes, relationships: { servers: { object: 'list', data: owned.get(r.attributes.id) ?? [] } } },
  }));
}

function canRead(caller: Caller, resource: 'servers'): boolean {
  try {
    checkAdminAccess(caller, resource, false);
    return true;
  } catch {
    return false;
  }
}

/** The user a route's `:user` names (a numeric id, as the reference binds it), or 404. */
export async function boundUser(deps: AppDeps, param: unknown): Promise<UserRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const user = id === null ? undefined : await users.findById(deps.db, id);
  if (!user) throw notFound(RESOURCE_MISSING);
  return user;
}

export async function applicationUserRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock, config } = deps;
  const box = loadSecretBox(config.dataDir);
  const bound = (request: FastifyRequest) => boundUser(deps, (request.params as { user: string }).user);
  const log = (caller: Caller, request: FastifyRequest, event: ActivityInput['event'] & `admin:${string}`, user: UserRow, properties = {}) =>
    logActivity(db, adminActivity(caller, request.ip, event, { email: user.email, ...properties }, clock.now(), [{ type: 'user', id: user.id }]));

  await adminRoute(
    app,
    userEndpoints.list,
  )(async ({ request, query, caller }) => {
    const sort = query.sort ?? 'id';
    const result = await users.page(db, {
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
    return paginatedList(request, config.appUrl, await withIncludes(deps, caller, result.rows, query.include), result.total, query);
  });

  await adminRoute(app, userEndpoints.view, { bind: bound })(async ({ query, caller, bound: user }) => {
    const [resource] = await withIncludes(deps, caller, [user], query.include);
    return resource ?? userResource(user);
  });

  await adminRoute(
    app,
    userEndpoints.external,
  )(async ({ request, query, caller }) => {
    const { external_id: externalId } = request.params as { external_id: string };
    const user = await users.findByExternalId(db, externalId);
    if (!user) throw notFound(RESOURCE_MISSING);
    const [resource] = await withIncludes(deps, caller, [user], query.include);
    return resource ?? userResource(user);
  });

  await adminRoute(
    app,
    userEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const now = clock.now();
    const { user, invite } = await createAccount(db, body, now);
    await log(caller, request, 'admin:user.create', user, { username: user.username, admin: user.root_admin === 1 });
    if (invite) {
      // Without mail the admin makes the link with POST …/password-reset and passes it on.
      const link = resetLink(mailedOrigin(request, config), await issueResetToken(db, user, now), user.email, 'invite');
      const mail = await panelMailer(db, config, box);
      void mail
        .send(accountCreatedMail(mail.panelName, user.email, link))
        .catch((error: unknown) => request.log.error({ err: error }, 'invitation not sent'));
    }
    reply.status(201);
    return {
      ...userResource(user),
      meta: { resource: `${mailedOrigin(request, config)}${userEndpoints.view.path.replace(':user', String(user.id))}` },
    };
  });

  await adminRoute(app, userEndpoints.update, { bind: bound })(async ({ request, caller, body, bound: user }) => {
    // An admin changing their own password through the admin area stays signed in there.
    const keep = user.id === caller.user.id ? (caller.sessionId ?? undefined) : undefined;
    const { user: updated, changed } = await updateAccount(db, deps.nodes, user, body, clock.now(), keep);
    if (changed.length)
      await log(caller, request, 'admin:user.update', updated, { changed, ...(updated.email === user.email ? {} : { old_email: user.email }) });
    return userResource(updated);
  });

  await adminRoute(app, userEndpoints.delete, { bind: bound })(async ({ request, caller, bound: user }) => {
    const { subuserOf } = await deleteAccount(db, deps.nodes, box, user, clock.now());
    const now = clock.now();
    // Each server they shared sees the place go, as when its owner removes a subuser (the CLI's user:delete too).
    await logActivities(db, [
      adminActivity(caller, request.ip, 'admin:user.delete', { email: user.email, username: user.username }, now, [{ type: 'user', id: user.id }]),
      ...subuserOf.map((s) =>
        serverActivity(caller, request.ip, s.id, 'server:subuser.delete', { email: user.email }, now, [{ type: 'user', id: user.id }]),
      ),
    ]);
  });

  await adminRoute(app, userEndpoints.twoFactorDisable, { bind: bound })(async ({ request, caller, bound: user }) => {
    await users.disableTotp(db, user.id, clock.now());
    await log(caller, request, 'admin:user.two-factor.delete', user);
  });

  await adminRoute(app, userEndpoints.passwordReset, { bind: bound })(async ({ request, caller, bound: user }) => {
    const link = resetLink(mailedOrigin(request, config), await issueResetToken(db, user, clock.now()), user.email);
    const mail = await panelMailer(db, config, box);
    // Awaited, so `mailed` is true only when the mail left; otherwise the admin is given the link.
    const mailed =
      mail.enabled &&
      (await mail.send(passwordResetMail(mail.panelName, user.email, link, 'admin')).then(
        () => true,
        (error: unknown) => {
          request.log.error({ err: error }, 'password link not sent');
          return false;
        },
      ));
    await log(caller, request, 'admin:user.update', user, { changed: ['password_link'], password_link: mailed ? 'mailed' : 'shown' });
    return mailed ? { mailed } : { mailed, link };
  });
}
