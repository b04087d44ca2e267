import type { Db } from '../db';
import { subusers } from '../db/repos';
import type { Subuser } from '../db/repos/subusers';
import type { UserRow } from '../db/schema';
import { isPermission, type Permission } from '../../src/contract';
import { badRequest } from '../http/errors';
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
): Promise<{ subuser: Subuser; user: UserRow }> {
  let user = await findUserByEmail(db, email);
  if (user?.id === server.owner_id) {
    throw badRequest('You cannot add the server owner as a subuser for this server.', 'UserIsServerOwnerException');
  }
  if (user) {
    if (await subusers.find(db, server.id, user.id)) {
      throw badRequest('A user with that email address is already assigned as a subuser for this server.', 'ServerSubuserExistsException');
    }
  } else {
    const base = (email.split('@')[0] ?? 'user').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64) || 'user';
    user = await createUser(
      db,
      { email, username: `${base}${randomAlnum(3)}`, password: randomAlnum(32), firstName: 'Server', lastName: 'Subuser' },
      now,
    );
  }
  const subuser = await subusers.insert(db, { user_id: user.id, server_id: server.id, permissions: normalisePermissions(permissions), now });
  return { subuser, user };
}
