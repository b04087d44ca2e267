import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { Secret } from 'otpauth';
import type { Db } from '../db';
import { users } from '../db/repos';
import type { UserRow } from '../db/schema';
import { randomAlnum } from '../lib/crypto';
import type { SecretBox } from '../lib/secret-box';
import { badRequest } from '../http/errors';
import { endSessionsOf } from './authentication';

// argon2id with OWASP's minimum parameters (19 MiB, t=2, p=1).
const ARGON = { algorithm: 2 /* Argon2id (a const enum upstream) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing, verified against when the account does not exist so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomAlnum(32));
  return dummyHash;
}

export interface CreateUserInput {
  email: string;
  username: string;
  password: string;
  admin?: boolean;
  firstName?: string;
  lastName?: string;
}

export async function createUser(db: Db, input: CreateUserInput, now: Date): Promise<UserRow> {
  if (await users.emailOrUsernameTaken(db, input.email, input.username)) {
    throw badRequest('A user with that email or username already exists.', 'DisplayException');
  }
  const ts = now.toISOString();
  return users.insert(db, {
    uuid: randomUUID(),
    email: input.email,
    username: input.username,
    name_first: input.firstName ?? '',
    name_last: input.lastName ?? '',
    password_hash: await hashPassword(input.password),
    root_admin: input.admin ? 1 : 0,
    language: 'en',
    use_totp: 0,
    totp_secret: null,
    totp_last_step: null,
    created_at: ts,
    updated_at: ts,
  });
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return users.findByEmail(db, email);
}

export function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  // As the reference panel: an `@` means an email address, otherwise a username.
  return login.includes('@') ? users.findByEmail(db, login) : users.findByUsername(db, login);
}

export const RECOVERY_TOKEN_COUNT = 10;

/**
 * Turns TOTP on: a fresh base32 secret (stored sealed) and 10 single-use recovery tokens (stored
 * hashed). Every other session of the user ends: one signed in before the second factor existed
 * must not outlive it.
 */
export async function enableTotp(
  db: Db,
  box: SecretBox,
  userId: number,
  now: Date,
  keepSessionId?: string,
): Promise<{ secret: string; recovery_tokens: string[] }> {
  const secret = newTotpSecret();
  return { secret, recovery_tokens: await enableTotpWith(db, box, userId, secret, now, keepSessionId) };
}

/** A fresh base32 TOTP secret. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** Turns TOTP on with `secret` (the one the account settings showed); returns the new recovery tokens. */
export async function enableTotpWith(db: Db, box: SecretBox, userId: number, secret: string, now: Date, keepSessionId?: string): Promise<string[]> {
  const tokens = Array.from({ length: RECOVERY_TOKEN_COUNT }, () => randomAlnum(10));
  const hashes = await Promise.all(tokens.map((t) => hashPassword(t)));
  await users.enableTotp(db, userId, box.seal(secret), hashes, now);
  await endSessionsOf(db, userId, keepSessionId);
  return tokens;
}

/** Shortest password the panel sets. */
export const MIN_PASSWORD_LENGTH = 8;

/** Sets a new password and ends every other session of the user, as a password change should. */
export async function changePassword(
  db: Db,
  userId: number,
  password: string,
  now: Date,
  keepSessionId?: string,
): Promise<{ sessionsEnded: number }> {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`, 'DisplayException');
  await users.setPasswordHash(db, userId, await hashPassword(password), now);
  return { sessionsEnded: await endSessionsOf(db, userId, keepSessionId) };
}
