import { userIdentifier } from './login';
import { createHash } from 'node:crypto';
import type { NodeDaemon } from '../daemon/capabilities';
import type { Db } from '../db';
import { subusers } from '../db/repos';
import type { Subuser } from '../db/repos/subusers';
import type { UserRow } from '../db/schema';
import { isPermission, type Permission } from '../../src/contract';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { ServerAccess } from './access';
import { revokeSocketTokens } from './node-tokens';
import { randomAlnum } from '../lib/crypto';
import { createUser, findUserByEmail } from './users';

/**
 * Keeps only known permission strings, always adds `websocket.connect` and removes duplicates,
 * returning a plain array.
 */
export function normalisePermissions(input: readonly string[]): Permission[] {
  const set = new Set<Permission>(['websocket.connect']);
  for (const p of input) if (isPermission(p)) set.add(p);
  return [...set];
}

/**
 * Adds a subuser by email: an existing account is linked, otherwise a new one is made with a
 * username from the email and a random password (the owner shares access, not credentials).
 */
export async function addSubuser(
  db: Db,
  server: { id: number; owner_id: number },
  email: string,
  permissions: readonly string[],
  now: Date,
): Promise<{ subuser: Subuser; user: UserRow; created: boolean }> {
  let user = await findUserByEmail(db, email);
  let created = !user;
  const exists = () => badRequest('A user with that email address is already assigned as a subuser for this server.', 'ServerSubuserExistsException');
  if (user?.id === server.owner_id) {
    throw badRequest('You cannot add the server owner as a subuser for this server.', 'UserIsServerOwnerException');
  }
  if (user) {
    if (await subusers.find(db, server.id, user.id)) throw exists();
  } else {
    const base = (email.split('@')[0] ?? 'user').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64) || 'user';
    user = await createUser(
      db,
      { email, username: `${base}${randomAlnum(3)}`, password: randomAlnum(32), firstName: 'Server', lastName: 'Subuser' },
      now,
    ).catch(async (error: unknown) => {
      // Another request made this account meanwhile (the password hashing leaves time): link it.
      const made = isUniqueViolation(error) ? await findUserByEmail(db, email) : undefined;
      if (!made) throw error;
      created = false;
      return made;
    });
  }
  const subuser = await subusers
    .insert(db, { user_id: user.id, server_id: server.id, permissions: normalisePermissions(permissions), now })
    .catch((error: unknown) => {
      // The same address added by two requests at once: the second is told it already is.
      throw isUniqueViolation(error) ? exists() : error;
    });
  return { subuser, user, created };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * The subset rule, on the raw body before unknown strings are dropped: a subuser may only grant
 * strings they hold themselves (an unknown one included). Owners and admins may send anything.
 */
export function assertGrantable(access: Pick<ServerAccess, 'subuserPermissions'>, body: unknown): void {
  const held = access.subuserPermissions;
  if (held === null || typeof body !== 'object' || body === null) return;
  const sent = (body as { permissions?: unknown }).permissions;
  if (!Array.isArray(sent)) return;
  if (sent.some((p) => !held.includes(p as Permission))) {
    throw forbidden('Cannot assign permissions to a subuser that your account does not actively possess.', 'HttpForbiddenException');
  }
}

/** The `server_subuser` resource: the user transformer's fields and the permissions. */
export function subuserResource(user: UserRow, permissions: readonly Permission[]) {
  return {
    object: 'server_subuser' as const,
    attributes: {
      uuid: user.uuid,
      identifier: userIdentifier(user),
      username: user.username,
      email: user.email,
      image: `https://gravatar.com/avatar/${createHash('md5').update(user.email.toLowerCase()).digest('hex')}`,
      '2fa_enabled': user.use_totp === 1,
      created_at: user.created_at,
      permissions: [...permissions],
    },
  };
}

/** Whether a revocation reached the node; the change stands either way (as the reference panel). */
async function revoke(daemon: NodeDaemon, serverUuid: string, userId: number): Promise<boolean> {
  try {
    await revokeSocketTokens(daemon, serverUuid, userId);
    return true;
  } catch {
    return false;
  }
}

/**
 * New permissions for a subuser, normalised. An unchanged set writes nothing (`changed` false);
 * otherwise the subuser's console tokens on this server are revoked at once.
 */
export async function changeSubuserPermissions(
  db: Db,
  daemon: NodeDaemon,
  server: { uuid: string },
  sub: Subuser,
  input: readonly string[],
  now: Date,
): Promise<{ subuser: Subuser; changed: boolean; revoked: boolean }> {
  const next = normalisePermissions(input);
  const sorted = (list: readonly string[]) => [...list].sort().join(',');
  if (sorted(next) === sorted(sub.permissions)) return { subuser: sub, changed: false, revoked: false };
  const subuser = await subusers.setPermissions(db, sub.id, next, now);
  if (!subuser) throw notFound();
  return { subuser, changed: true, revoked: await revoke(daemon, server.uuid, sub.user_id) };
}

/** Removes a subuser and revokes their console tokens on this server. */
export async function removeSubuser(db: Db, daemon: NodeDaemon, server: { uuid: string }, sub: Subuser): Promise<{ revoked: boolean }> {
  // Removed by a request at the same time: that one answers, revokes and logs.
  if (!(await subusers.remove(db, sub.id))) throw notFound();
  return { revoked: await revoke(daemon, server.uuid, sub.user_id) };
}
