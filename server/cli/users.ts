import { servers as serverRepo, users } from '../db/repos';
import { HostUnavailable } from '../services/server-databases';
import { ADD_SERVER_HINT, ADD_USER_HINT } from '../services/first-start';
import { deleteUser, UserDeletionError, type OwnedServers } from '../services/user-deletion';
import { CliError, logCliActivity, required, str, userByEmail, type Command } from './options';
import { table, withText } from './table';

/** The admin CLI's commands that list and delete accounts (creating them is in accounts.ts). */

export const NO_USERS = `No users yet. Create one (--admin makes a root admin) with:\n  ${ADD_USER_HINT} --admin\nthen give them a server with:\n  ${ADD_SERVER_HINT}`;

export const USER_COMMANDS: Record<string, Command> = {
  'user:list': {
    options: { json: { type: 'boolean' } },
    async run(opts, { db }) {
      const list = (await users.overview(db)).map((u) => ({
        id: u.id,
        uuid: u.uuid,
        username: u.username,
        email: u.email,
        admin: u.root_admin === 1,
        use_totp: u.use_totp === 1,
        servers: Number(u.servers ?? 0),
        subuser_of: Number(u.subuser_of ?? 0),
        created_at: u.created_at,
      }));
      const text = table(
        ['ID', 'USERNAME', 'EMAIL', 'ADMIN', '2FA', 'SERVERS', 'SUBUSER OF', 'CREATED'],
        list.map((u) => [
          String(u.id),
          u.username,
          u.email,
          u.admin ? 'yes' : 'no',
          u.use_totp ? 'on' : 'off',
          String(u.servers),
          String(u.subuser_of),
          u.created_at.slice(0, 10),
        ]),
        NO_USERS,
      );
      return withText({ users: list }, opts.json === true ? undefined : text);
    },
  },
  'user:delete': {
    options: { email: { type: 'string' }, 'delete-servers': { type: 'boolean' }, 'transfer-servers-to': { type: 'string' } },
    async run(opts, deps) {
      const { db, nodes, box, clock } = deps;
      const user = await userByEmail(db, required(opts, 'email'));
      const heir = str(opts, 'transfer-servers-to');
      if (heir !== undefined && opts['delete-servers'] === true) {
        throw new CliError('Give --delete-servers or --transfer-servers-to, not both.', 2);
      }
      const then: OwnedServers =
        heir !== undefined
          ? { action: 'transfer', to: await userByEmail(db, heir) }
          : opts['delete-servers'] === true
            ? { action: 'delete' }
            : { action: 'refuse' };
      const owned = await serverRepo.ownedBy(db, user.id);
      let result;
      try {
        result = await deleteUser(db, nodes, box, user, { servers: owned, then }, clock.now());
      } catch (error) {
        if (error instanceof UserDeletionError) throw new CliError(error.message);
        if (error instanceof HostUnavailable) throw new CliError(`A database host refused: ${error.reason}. The user was not deleted; run it again.`);
        throw error;
      }
      // Each server they shared sees the place go, as when its owner removes a subuser.
      for (const server of result.subuserOf) {
        await logCliActivity(deps, 'server:subuser.delete', { email: user.email }, [
          { type: 'server', id: server.id },
          { type: 'user', id: user.id },
        ]);
      }
      for (const server of owned.filter((s) => result.transferredServers.includes(s.uuid_short))) {
        const summary = `owner from ${user.email} to ${heir ?? ''}`;
        await logCliActivity(deps, 'server:settings.build', { summary, changes: [{ field: 'owner', old: user.email, new: heir }] }, [
          { type: 'server', id: server.id },
        ]);
      }
      return {
        deleted: user.email,
        uuid: user.uuid,
        servers_deleted: result.deletedServers,
        servers_transferred: result.transferredServers,
        subuser_removed_from: result.subuserOf.map((s) => s.uuid_short),
      };
    },
  },
};
