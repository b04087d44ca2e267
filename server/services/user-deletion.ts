import type { Db } from '../db';
import { subusers, users } from '../db/repos';
import type { ServerRow, UserRow } from '../db/schema';
import type { SecretBox } from '../lib/secret-box';
import type { NodeDaemons } from './node-daemons';
import { revokeUserTokens } from './node-tokens';
import { changeServerBuild } from './server-build';
import { deleteServer } from './server-deletion';

/*
 * Deleting an account. The reference refuses while the user owns servers ("Cannot delete a user
 * with active servers attached to their account"); here the operator may instead say what becomes
 * of them: deleted with the user, or handed to another user first. The user's console tokens are
 * refused on every server they reached, then the row goes, and with it their sessions, API keys,
 * SSH keys, recovery tokens and subuser places.
 */

export type OwnedServers = { action: 'refuse' } | { action: 'delete' } | { action: 'transfer'; to: UserRow };

export class UserDeletionError extends Error {}

export interface UserDeletion {
  /** The servers the user was a subuser of (an entry for each goes into their activity logs). */
  subuserOf: { id: number; uuid_short: string }[];
  deletedServers: string[];
  transferredServers: string[];
}

export async function deleteUser(
  db: Db,
  daemons: NodeDaemons,
  box: SecretBox,
  user: UserRow,
  owned: { servers: ServerRow[]; then: OwnedServers },
  now: Date,
): Promise<UserDeletion> {
  const { servers } = owned;
  if (servers.length > 0 && owned.then.action === 'refuse') {
    const names = servers.map((s) => `${s.uuid_short} "${s.name}"`).join(', ');
    throw new UserDeletionError(
      `${user.email} owns ${servers.length} server(s) (${names}); say what becomes of them with --delete-servers or --transfer-servers-to EMAIL.`,
    );
  }
  const then = owned.then;
  if (then.action === 'transfer' && then.to.id === user.id) throw new UserDeletionError('The servers cannot be handed to the user being deleted.');
  const result: UserDeletion = { subuserOf: [], deletedServers: [], transferredServers: [] };
  for (const server of servers) {
    if (then.action === 'delete') {
      await deleteServer(db, daemons, box, server);
      result.deletedServers.push(server.uuid_short);
    } else if (then.action === 'transfer') {
      // The new owner holds every right: a subuser place of theirs on it would only confuse.
      const place = await subusers.find(db, server.id, then.to.id);
      if (place) await subusers.remove(db, place.id);
      await changeServerBuild(db, daemons, server, { ownerId: then.to.id }, now);
      result.transferredServers.push(server.uuid_short);
    }
  }
  result.subuserOf = await subusers.serversOf(db, user.id);
  // Before the row goes: which servers the user reached is read from their subuser places.
  await revokeUserTokens(db, daemons, user);
  await users.remove(db, user.id);
  return result;
}
