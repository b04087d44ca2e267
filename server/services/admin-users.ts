import { randomUUID } from 'node:crypto';
import type { UserWrite } from '../../src/contract/users';
import type { Db } from '../db';
import { servers as serverRepo, users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { badRequest, validationErrors } from '../http/errors';
import { randomAlnum } from '../lib/crypto';
import type { SecretBox } from '../lib/secret-box';
import { endSessionsOf } from './authentication';
import type { NodeDaemons } from './node-daemons';
import { revokeUserTokens } from './node-tokens';
import { deleteUser, type UserDeletion } from './user-deletion';
import { hashPassword } from './users';

/*
 * Accounts as the application API changes them (a billing system's key or the admin area), with
 * the reference's rules: email, username and external id unique (422 on the field), a password
 * optional (without one, a new account is sent a link to set it), deletion refused while the user
 * owns servers. Only the fields of the request body change; ids, two-factor state and hashes never.
 */

type UniqueField = 'email' | 'username' | 'external_id';
const TAKEN: Record<UniqueField, string> = {
  email: 'The email has already been taken.',
  username: 'The username has already been taken.',
  external_id: 'The external id has already been taken.',
};

/** Laravel turns an empty string into null before the rules run; an external id is the same. */
const externalIdOf = (body: UserWrite): string | null | undefined => (body.external_id === '' ? null : body.external_id);

async function assertUnique(db: Db, body: UserWrite, externalId: string | null, exceptId?: number): Promise<void> {
  const taken = await users.takenFields(db, { email: body.email, username: body.username, external_id: externalId }, exceptId);
  if (taken.length)
    throw validationErrors(
      taken.map((field) => ({ field, detail: TAKEN[field] })),
      'unique',
    );
}

/** A write that lost a race with another for the same value: the same 422 the check gives. */
function uniqueRace(error: unknown): never {
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  const field = (['email', 'username', 'external_id'] as const).find((f) => message.includes(`UNIQUE constraint failed: users.${f}`));
  if (field) throw validationErrors([{ field, detail: TAKEN[field] }], 'unique');
  throw error;
}

/** Makes the account; `invite` when it has no password yet and must be sent a link to set one. */
export async function createAccount(db: Db, body: UserWrite, now: Date): Promise<{ user: UserRow; invite: boolean }> {
  const externalId = externalIdOf(body) ?? null;
  await assertUnique(db, body, externalId);
  const password = body.password ?? '';
  const ts = now.toISOString();
  const user = await users
    .insert(db, {
      uuid: randomUUID(),
      email: body.email,
      username: body.username,
      name_first: body.first_name,
      name_last: body.last_name,
      external_id: externalId,
      // Nobody knows this one: the account is reached through the mailed link only.
      password_hash: await hashPassword(password === '' ? randomAlnum(48) : password),
      root_admin: body.root_admin === true ? 1 : 0,
      language: body.language ?? 'en',
      use_totp: 0,
      totp_secret: null,
      totp_last_step: null,
      created_at: ts,
      updated_at: ts,
    })
    .catch(uniqueRace);
  return { user, invite: password === '' };
}

export interface AccountUpdate {
  user: UserRow;
  /** The names of the fields that changed (never the password's value). */
  changed: string[];
}

/**
 * Changes the account. A new password ends the user's sessions (but the caller's own, when they
 * change themselves) and their console tokens; so does losing root admin, whose consoles reached
 * every server.
 */
export async function updateAccount(
  db: Db,
  daemons: NodeDaemons,
  user: UserRow,
  body: UserWrite,
  now: Date,
  keepSessionId?: string,
): Promise<AccountUpdate> {
  const externalId = externalIdOf(body);
  await assertUnique(db, body, externalId === undefined ? user.external_id : externalId, user.id);
  const patch = {
    email: body.email,
    username: body.username,
    name_first: body.first_name,
    name_last: body.last_name,
    ...(externalId === undefined ? {} : { external_id: externalId }),
    ...(body.language === undefined ? {} : { language: body.language }),
    ...(body.root_admin === undefined ? {} : { root_admin: body.root_admin ? 1 : 0 }),
  };
  // Named as the API names them, for the activity log.
  const apiName = (column: string) => column.replace(/^name_(first|last)$/, '$1_name');
  const changed = Object.entries(patch).flatMap(([key, value]) => (user[key as keyof typeof patch] === value ? [] : [apiName(key)]));
  const password = body.password ?? '';
  const updated = await users
    .update(db, user.id, password === '' ? patch : { ...patch, password_hash: await hashPassword(password) }, now)
    .catch(uniqueRace);
  if (password !== '') {
    changed.push('password');
    await endSessionsOf(db, user.id, keepSessionId);
  }
  // Revoked with the old row, so a demoted admin's tokens go on every server they reached as one.
  if (password !== '' || (user.root_admin === 1 && updated.root_admin === 0)) await revokeUserTokens(db, daemons, user);
  return { user: updated, changed };
}

/**
 * Deletes the account unless it owns servers (the reference's rule, 400 naming them); its
 * sessions, keys, subuser places and console tokens go with it.
 */
export async function deleteAccount(db: Db, daemons: NodeDaemons, box: SecretBox, user: UserRow, now: Date): Promise<UserDeletion> {
  const owned = await serverRepo.ownedBy(db, user.id);
  if (owned.length > 0) {
    const named = owned.map((s) => `${s.name} (${s.uuid_short})`).join(', ');
    const count = owned.length === 1 ? '1 server' : `${owned.length} servers`;
    throw badRequest(
      `Cannot delete a user with active servers attached to their account: ${user.email} owns ${count}: ${named}.`,
      'DisplayException',
    );
  }
  return deleteUser(db, daemons, box, user, { servers: owned, then: { action: 'refuse' } }, now);
}
