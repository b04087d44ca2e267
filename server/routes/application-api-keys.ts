import type { FastifyInstance } from 'fastify';
import { applicationKeyEndpoints, MAX_APPLICATION_KEYS } from '../../src/contract/admin-api-keys';
import type { AppDeps } from '../deps';
import type { KeySummary } from '../db/repos/api-keys';
import { badRequest, notFound, validationError } from '../http/errors';
import { adminRoute } from '../http/routes';
import { isoOffset } from '../lib/time';
import { adminActivity, logActivity } from '../services/activity';
import { createApiKey, deleteApiKey, grantsFromWords, grantWords, isIpRange, listApiKeys, type ApplicationGrants } from '../services/api-keys';

/*
 * The calling root admin's application keys (`/api/application/api-keys`): list, create (the
 * secret in that answer only), revoke. A session only: a key never makes or lists keys, and
 * another admin's keys and every client key answer 404.
 */

function keyResource(key: Omit<KeySummary, 'key_type'>) {
  return {
    object: 'api_key' as const,
    attributes: {
      identifier: key.identifier,
      description: key.description,
      permissions: grantWords(key.permissions as ApplicationGrants),
      allowed_ips: key.allowed_ips,
      last_used_at: key.last_used_at === null ? null : isoOffset(key.last_used_at),
      created_at: isoOffset(key.created_at),
    },
  };
}

export async function applicationApiKeyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, clock } = deps;

  await adminRoute(
    app,
    applicationKeyEndpoints.list,
  )(async ({ caller }) => ({ object: 'list' as const, data: (await listApiKeys(db, caller.user.id, 'application')).map(keyResource) }));

  await adminRoute(
    app,
    applicationKeyEndpoints.create,
  )(async ({ request, reply, caller, body }) => {
    const grants = grantsFromWords(body.permissions);
    if (grants === null) throw validationError('permissions', 'The permissions name an unknown resource or access.');
    const allowed = (body.allowed_ips ?? []).filter(Boolean);
    const bad = allowed.findIndex((entry) => !isIpRange(entry));
    if (bad >= 0) throw validationError(`allowed_ips.${bad}`, `"${allowed[bad]}" is not an IP address or CIDR range.`);
    if ((await listApiKeys(db, caller.user.id, 'application')).length >= MAX_APPLICATION_KEYS) {
      throw badRequest('You have reached the account limit for number of API keys.', 'DisplayException');
    }
    const now = clock.now();
    const key = await createApiKey(db, caller.user.id, body.description, now, allowed, { type: 'application', grants });
    await logActivity(
      db,
      adminActivity(caller, request.ip, 'admin:api-key.create', { identifier: key.identifier, permissions: grantWords(grants) }, now, []),
    );
    reply.status(201);
    const created = {
      identifier: key.identifier,
      description: body.description,
      permissions: grants,
      allowed_ips: allowed,
      last_used_at: null,
      created_at: now.toISOString(),
    };
    return { ...keyResource(created), meta: { secret_token: key.token } };
  });

  await adminRoute(
    app,
    applicationKeyEndpoints.delete,
  )(async ({ request, caller }) => {
    const { identifier } = request.params as { identifier: string };
    if (!(await deleteApiKey(db, identifier, { userId: caller.user.id, type: 'application' }))) throw notFound();
    await logActivity(db, adminActivity(caller, request.ip, 'admin:api-key.delete', { identifier }, clock.now(), []));
  });
}
