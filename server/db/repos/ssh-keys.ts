import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { UserSshKeysTable } from '../schema';

/** The account SSH keys, always scoped to their user. */

export type SshKeyRow = Selectable<UserSshKeysTable>;

export function listForUser(db: Db, userId: number): Promise<SshKeyRow[]> {
  return db.selectFrom('user_ssh_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** Inserts the key; undefined when the user already has one with this fingerprint. */
export function insert(db: Db, key: Insertable<UserSshKeysTable>): Promise<SshKeyRow | undefined> {
  return db
    .insertInto('user_ssh_keys')
    .values(key)
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the user's key with this fingerprint; the deleted row, or undefined when there was none. */
export function removeByFingerprint(db: Db, userId: number, fingerprint: string): Promise<SshKeyRow | undefined> {
  return db.deleteFrom('user_ssh_keys').where('user_id', '=', userId).where('fingerprint', '=', fingerprint).returningAll().executeTakeFirst();
}
