import { parseArgs } from 'node:util';
import { subusers } from '../db/repos';
import type { UserRow } from '../db/schema';
import { isPermission } from '../../src/contract';
import { ImportError, importActivity } from '../services/activity-import';
import { readImportFile } from './activity-import';
import { seedDemo, isPanelEmpty } from '../services/demo';
import { addSubuser, removeSubuser } from '../services/subusers';
import { findUserByLogin } from '../services/users';
import { ACCOUNT_COMMANDS } from './accounts';
import { DATABASE_HOST_COMMANDS } from './database-hosts';
import { NODE_COMMANDS } from './nodes';
import { PASSWORD_RESET_COMMANDS } from './password-reset';
import { CliError, logCliActivity, required, userByEmail, type CliDeps, type Command, type Options } from './options';
import { daemonOf, serverById, SERVER_COMMANDS } from './servers';
import { TRANSFER_COMMANDS } from './server-transfer';
import { USER_COMMANDS } from './users';

export { CliError, type CliDeps } from './options';
export { serverJson } from './servers';
export { textOf } from './table';

export const USAGE = `Usage: npm run -s panel -- <command> [options]

Commands:
  user:create --email E --username U --password P [--admin] [--first-name F] [--last-name L]
                                          P is at least 8 characters
  user:password --email E                 sets the password read from standard input (never an argument),
                                          e.g. printf '%s' "$PW" | npm run -s panel -- user:password --email E;
                                          signs the user out everywhere
  user:2fa --email E                      turn TOTP on; prints the secret and recovery tokens; signs the user out everywhere
  session:revoke --email E                signs the user out of every browser session
  user:reset-link --email E               prints a password-reset link (60 minutes, single use; replaces an
                                          earlier one) to hand over when the panel sends no mail (SMTP_URL)
  user:list [--json]                      every user: admin, 2FA, servers owned, subuser places
  user:delete --email E [--delete-servers | --transfer-servers-to EMAIL]
                                          deletes the user, their sessions, keys and subuser places; refused
                                          while they own servers unless told to delete or hand them over
  server:create --owner EMAIL --name N [--egg EGG] [--description D] [--memory MB] [--disk MB] [--cpu PCT] [--count K] [--node NODE]
                                          EGG is an egg's name or id: "Demo game" (the default, runs on Node)
                                          or "Paper" (needs Java and a server jar); with --count, K servers
                                          named "N 01"…; prints {"servers": [...]}; NODE (a name or id) places
                                          it there, else the node with the most free memory and a free port
  server:list [--json]                    every server: owner, egg, address, status and limits
  server:update --server ID [--memory MB] [--disk MB] [--cpu PCT] [--owner EMAIL] [--egg EGG] [--image IMAGE]
                                          0 is unlimited; IMAGE is one of the egg's images (a new egg's first
                                          one when not given); the running panel's node gets it at once
  server:delete --server ID               stops it (kill), removes its volume, backups and databases (on their host)
  server:transfer --server ID --node N [--timeout SECONDS]
                                          moves the server's files to node N (the panel must be running; it
                                          is stopped first) and waits (30 min at most); prints
                                          {"transferred": true, "node"}; a failure leaves it where it was
  server:status --server ID --status suspended|installing|install_failed|reinstall_failed|restoring_backup|none
  subuser:add --server ID --email E --permissions a,b,c
  subuser:remove --server ID --email E    removes the subuser; their open consoles on the server are closed
  apikey:create --email E [--description D] [--allowed-ips 203.0.113.4,10.0.0.0/8]
                [--application [--permissions users:rw,servers:r,…]]
                                          prints {"token"}; an application key (ptla_) is an admin's, for
                                          /api/application: read-write on every resource unless named
  apikey:list --email E [--json]          the user's keys (identifiers, never the tokens)
  apikey:delete --identifier I
  activity:import --server ID --file F    add audit entries from a JSON array (F = - reads stdin):
                                          [{"event": "server:power.start", "timestamp": "2026-03-01T12:00:00Z",
                                            "actor": EMAIL|USERNAME|null, "ip": "…", "properties": {…}, "description": "…"}]
  dbhost:create --name N --host H [--port P] --username U --password W [--max-databases K]
                                          a MariaDB/MySQL server for servers' databases; U needs CREATE, DROP,
                                          CREATE USER and GRANT OPTION on *.* (checked first); W = - reads
                                          it from standard input; prints the host without its password
  dbhost:list [--json]                    the database hosts and how many databases each holds
  dbhost:delete --name N                  refused while databases live on it
  node:create --name N --fqdn HOST --daemon-port P [--scheme http|https] [--sftp-port P] [--ports A-B] [--ip IP]
              [--memory MB] [--disk MB] [--location SHORT]  a Wings node (or Aerie's node on another
                                          machine) in location SHORT ("default" when absent; made when
                                          missing); prints {"id", "uuid", "name", "location", "token_id", "token"}
  node:config --name N [--data-dir DIR] [--json]  the node's Wings config.yml (paths under DIR when given); {config} with --json
  node:list [--json]                      every node, its servers, and whether it answers (its version)
  node:delete --name N                    refused while servers live on it
  demo                                    seed the demo data into an empty data dir

Every command takes --as ADMIN (a root admin's e-mail or username): the activity entries it writes
name that admin as their actor (without it, nobody: the log shows the system).
ID is a server's 8-character identifier or its uuid. The data dir is PANEL_DATA_DIR (default ./data).
Prints one JSON object as its last line on success; the list commands print a table, or the JSON with --json.`;

/** The usage of one command (its lines of USAGE), or null for a command there is none of. */
export function usageOf(command: string): string | null {
  const lines = USAGE.split('\n');
  const first = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (first < 0) return null;
  let end = first + 1;
  while (end < lines.length && /^ {4,}\S/.test(lines[end] ?? '')) end += 1;
  return `Usage: npm run -s panel -- ${lines.slice(first, end).join('\n').trim()}`;
}

const COMMANDS: Record<string, Command> = {
  ...ACCOUNT_COMMANDS,
  ...DATABASE_HOST_COMMANDS,
  ...NODE_COMMANDS,
  ...PASSWORD_RESET_COMMANDS,
  ...USER_COMMANDS,
  ...SERVER_COMMANDS,
  ...TRANSFER_COMMANDS,
  'subuser:add': {
    options: { server: { type: 'string' }, email: { type: 'string' }, permissions: { type: 'string' } },
    async run(opts, deps) {
      const { db, clock } = deps;
      const server = await serverById(db, required(opts, 'server'));
      const permissions = required(opts, 'permissions')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      // The API drops unknown strings as the reference does; an operator's typo is better said.
      const unknown = permissions.filter((p) => !isPermission(p));
      if (unknown.length)
        throw new CliError(`--permissions: unknown ${unknown.map((p) => `"${p}"`).join(', ')}; see GET /api/client/permissions.`, 2);
      const email = required(opts, 'email');
      const { subuser, user, created } = await addSubuser(db, server, email, permissions, clock.now());
      await logCliActivity(deps, 'server:subuser.create', { email: user.email, permissions: subuser.permissions }, [
        { type: 'server', id: server.id },
        { type: 'user', id: user.id },
      ]);
      return {
        ...(!created
          ? {}
          : {
              // The new account's password is random and shown to nobody; say how its owner gets in.
              note: `No account had the e-mail ${user.email}: one was created with a random password nobody knows. Set one with: printf '%s' "$PASSWORD" | npm run -s panel -- user:password --email ${user.email}`,
            }),
        id: subuser.id,
        uuid: user.uuid,
        server: server.uuid_short,
        username: user.username,
        email: user.email,
        permissions: subuser.permissions,
      };
    },
  },
  'subuser:remove': {
    options: { server: { type: 'string' }, email: { type: 'string' } },
    async run(opts, deps) {
      const { db, nodes } = deps;
      const server = await serverById(db, required(opts, 'server'));
      const user = await userByEmail(db, required(opts, 'email'));
      const sub = await subusers.find(db, server.id, user.id);
      if (!sub) throw new CliError(`${user.email} is not a subuser of ${server.uuid_short}.`);
      // The API's own removal: the row goes and the user's console tokens on the server are refused.
      const { revoked } = await removeSubuser(db, await daemonOf(db, nodes, server), server, sub);
      await logCliActivity(deps, 'server:subuser.delete', { email: user.email, revoked }, [
        { type: 'server', id: server.id },
        { type: 'user', id: user.id },
      ]);
      return { removed: user.email, server: server.uuid_short, revoked };
    },
  },
  'activity:import': {
    options: { server: { type: 'string' }, file: { type: 'string' } },
    async run(opts, { db, clock }) {
      const server = await serverById(db, required(opts, 'server'));
      try {
        const { imported } = await importActivity(db, server, readImportFile(required(opts, 'file')), clock.now());
        return { server: server.uuid_short, imported };
      } catch (error) {
        if (error instanceof ImportError) throw new CliError(error.message);
        throw error;
      }
    },
  },
  demo: {
    options: {},
    async run(_opts, { db, nodes, clock, ports }) {
      if (!(await isPanelEmpty(db))) {
        throw new CliError(
          'The data dir already has users: demo data is only seeded into an empty data dir (set PANEL_DATA_DIR to a new directory).',
        );
      }
      return seedDemo(db, nodes, clock.now(), ports);
    },
  },
};

/** The root admin `--as` names (e-mail or username), recorded as the actor of what the command does. */
async function actorFor(deps: CliDeps, login: string): Promise<UserRow> {
  const user = await findUserByLogin(deps.db, login);
  if (!user) throw new CliError(`--as: no user with e-mail or username ${login}.`, 2);
  if (user.root_admin !== 1) throw new CliError(`--as: ${user.email} is not a root admin.`, 2);
  return user;
}

/** Runs one command and returns the object to print; throws CliError (or a service error). */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<object> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') throw new CliError(USAGE, 2);
  const command = COMMANDS[name];
  if (!command) throw new CliError(`Unknown command "${name}".\n\n${USAGE}`, 2);
  let values: Options;
  try {
    ({ values } = parseArgs({ args: [...rest], options: { ...command.options, as: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new CliError(`${name}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  const { as, ...own } = values;
  return command.run(own, typeof as === 'string' ? { ...deps, actor: await actorFor(deps, as) } : deps);
}

export const COMMAND_NAMES = Object.keys(COMMANDS);
