import type { Db } from '../index';
import type { NewUser, UserRow } from '../schema';
import { filteredPage } from './like';

/** Users and their two-factor state (recovery tokens included). */

export function findById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByUuid(db: Db, uuid: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

/** The unique index is COLLATE NOCASE; compare the same way. */
export function findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export function findByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

/** Who several users are, for showing them (the owners of a page of servers). */
export function namesByIds(db: Db, ids: readonly number[]): Promise<Pick<UserRow, 'id' | 'username' | 'email'>[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'username', 'email']).where('id', 'in', ids).execute();
}

export async function emailOrUsernameTaken(db: Db, email: string, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), '=', email.toLowerCase()), eb('username', '=', username)]))
    .executeTakeFirst();
  return row !== undefined;
}

export function insert(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function hasAny(db: Db): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export function emailOf(db: Db, id: number): Promise<string | undefined> {
  return db
    .selectFrom('users')
    .select('email')
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => r?.email);
}

/** Turns TOTP on with a new secret and replaces the recovery tokens, in one transaction. */
export async function enableTotp(db: Db, userId: number, secret: string, tokenHashes: string[], now: Date): Promise<void> {
  const ts = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ use_totp: 1, totp_secret: secret, totp_last_step: null, updated_at: ts }).where('id', '=', userId).execute();
    await trx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
    if (tokenHashes.length) {
      await trx
        .insertInto('recovery_tokens')
        .values(tokenHashes.map((h) => ({ user_id: userId, token_hash: h, created_at: ts })))
        .execute();
    }
  });
}

/** Stores a sealed TOTP secret awaiting confirmation; refused (false) while TOTP is on, so an active secret is never replaced. */
export async function setPendingTotpSecret(db: Db, userId: number, secret: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_secret: secret, totp_last_step: null, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .where('use_totp', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns TOTP off: secret, last step and recovery tokens go, in one transaction. */
export async function disableTotp(db: Db, userId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ use_totp: 0, totp_secret: null, totp_last_step: null, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
  });
}

export async function setEmail(db: Db, userId: number, email: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now.toISOString() }).where('id', '=', userId).execute();
}

/**
 * Records `step` as the last TOTP step used, only when it is newer than the stored one, so two
 * requests racing with the same code cannot both succeed.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function recoveryTokens(db: Db, userId: number): Promise<{ id: number; token_hash: string }[]> {
  return db.selectFrom('recovery_tokens').select(['id', 'token_hash']).where('user_id', '=', userId).execute();
}

/** Deletes one recovery token; false when a concurrent request used it first. */
export async function deleteRecoveryToken(db: Db, id: number): Promise<boolean> {
  const deleted = await db.deleteFrom('recovery_tokens').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now.toISOString() }).where('id', '=', userId).execute();
}

/** Users whose stored TOTP secret is not in the form `keep` accepts (written before secrets were sealed). */
export async function totpSecretsWhere(db: Db, keep: (secret: string) => boolean): Promise<{ id: number; totp_secret: string }[]> {
  const rows = await db.selectFrom('users').select(['id', 'totp_secret']).where('totp_secret', 'is not', null).execute();
  return rows.flatMap((r) => (r.totp_secret !== null && !keep(r.totp_secret) ? [{ id: r.id, totp_secret: r.totp_secret }] : []));
}

/** Replaces a stored TOTP secret only if it still is `expected`, so a secret changed meanwhile is never overwritten. */
export async function replaceTotpSecret(db: Db, userId: number, expected: string, secret: string): Promise<void> {
  await db.updateTable('users').set({ totp_secret: secret }).where('id', '=', userId).where('totp_secret', '=', expected).execute();
}

/** Every user with how many servers they own and are a subuser of, oldest first (the admin CLI's list). */
export function overview(db: Db) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.uuid',
      'users.username',
      'users.email',
      'users.root_admin',
      'users.use_totp',
      'users.created_at',
      eb.selectFrom('servers').select(eb.fn.countAll<number>().as('n')).whereRef('servers.owner_id', '=', 'users.id').as('servers'),
      eb.selectFrom('subusers').select(eb.fn.countAll<number>().as('n')).whereRef('subusers.user_id', '=', 'users.id').as('subuser_of'),
    ])
    .orderBy('users.id')
    .execute();
}

/** Removes the user; their sessions, API keys, SSH keys, recovery tokens and subuser rows go with them. */
export async function remove(db: Db, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export interface UserPageQuery {
  /** Parts of these columns (the reference's filters match anywhere in the value). */
  filters: Partial<Record<'email' | 'uuid' | 'username' | 'external_id', string>>;
  sort: { column: 'id' | 'uuid'; descending: boolean };
  page: number;
  perPage: number;
}

/** One page of accounts and how many match in all (the application API's user list). */
export async function page(db: Db, query: UserPageQuery): Promise<{ rows: UserRow[]; total: number }> {
  return filteredPage(db, 'users', query);
}

export function findByExternalId(db: Db, externalId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function setExternalId(db: Db, userId: number, externalId: string | null): Promise<void> {
  await db.updateTable('users').set({ external_id: externalId }).where('id', '=', userId).execute();
}

/** Which of these values another account (not `exceptId`) already holds: email (any case), username, external id. */
export async function takenFields(
  db: Db,
  values: { email: string; username: string; external_id: string | null },
  exceptId?: number,
): Promise<('email' | 'username' | 'external_id')[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'username', 'external_id'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['email']), '=', values.email.toLowerCase()),
        eb('username', '=', values.username),
        ...(values.external_id === null ? [] : [eb('external_id', '=', values.external_id)]),
      ]),
    )
    .execute();
  const others = rows.filter((r) => r.id !== exceptId);
  const taken: ('email' | 'username' | 'external_id')[] = [];
  if (others.some((r) => r.email.toLowerCase() === values.email.toLowerCase())) taken.push('email');
  if (others.some((r) => r.username === values.username)) taken.push('username');
  if (values.external_id !== null && others.some((r) => r.external_id === values.external_id)) taken.push('external_id');
  return taken;
}

/** Changes the account's own fields (the application API's update); the row as it is now. */
export function update(
  db: Db,
  userId: number,
  patch: Partial<
    Pick<UserRow, 'email' | 'username' | 'name_first' | 'name_last' | 'external_id' | 'language' | 'theme' | 'root_admin' | 'password_hash'>
  >,
  now: Date,
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...patch, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
