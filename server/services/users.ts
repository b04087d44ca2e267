import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { Secret } from 'otpauth';
import type { Db } from '../db';
import type { UserRow } from '../db/schema';
import { randomAlnum } from '../lib/crypto';
import { badRequest } from '../http/errors';

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
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase()), eb('username', '=', input.username)]))
    .executeTakeFirst();
  if (existing) throw badRequest('A user with that email or username already exists.', 'DisplayException');
  const ts = now.toISOString();
  return db
    .insertInto('users')
    .values({
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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  // The unique index is COLLATE NOCASE; compare the same way.
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  // As the reference panel: an `@` means an email address, otherwise a username.
  if (login.includes('@')) return findUserByEmail(db, login);
  return db.selectFrom('users').selectAll().where('username', '=', login).executeTakeFirst();
}

export const RECOVERY_TOKEN_COUNT = 10;

/** Turns TOTP on: a fresh base32 secret and 10 single-use recovery tokens (stored hashed). */
export async function enableTotp(db: Db, userId: number, now: Date): Promise<{ secret: string; recovery_tokens: string[] }> {
  const secret = new Secret({ size: 20 }).base32;
  const tokens = Array.from({ length: RECOVERY_TOKEN_COUNT }, () => randomAlnum(10));
  const hashes = await Promise.all(tokens.map((t) => hashPassword(t)));
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ use_totp: 1, totp_secret: secret, totp_last_step: null, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_tokens')
      .values(hashes.map((h) => ({ user_id: userId, token_hash: h, created_at: now.toISOString() })))
      .execute();
  });
  return { secret, recovery_tokens: tokens };
}
