import { parseArgs } from 'node:util';
import type { Db } from '../db';
import { allocations, users } from '../db/repos';
import type { ServerRow } from '../db/schema';
import { isPermission, SERVER_STATUSES, type ServerStatus } from '../../src/contract';
import { ImportError, importActivity } from '../services/activity-import';
import { readImportFile } from './activity-import';
import { seedDemo, isPanelEmpty } from '../services/demo';
import { createServer, findEgg, findServer, setServerStatus } from '../services/servers';
import { addSubuser } from '../services/subusers';
import { ACCOUNT_COMMANDS } from './accounts';
import { DATABASE_HOST_COMMANDS } from './database-hosts';
import { PASSWORD_RESET_COMMANDS } from './password-reset';
import { CliError, int, required, str, userByEmail, type CliDeps, type Command, type Options } from './options';

export { CliError, type CliDeps } from './options';

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
  server:create --owner EMAIL --name N [--egg EGG] [--description D] [--memory MB] [--disk MB] [--cpu PCT] [--count K]
                                          EGG is an egg's name or id: "Demo game" (the default, runs on Node)
                                          or "Paper" (needs Java and a server jar); with --count, K servers
                                          named "N 01"…; prints {"servers": [...]}
  server:status --server ID --status suspended|installing|install_failed|reinstall_failed|restoring_backup|none
  subuser:add --server ID --email E --permissions a,b,c
  apikey:create --email E [--description D] [--allowed-ips 203.0.113.4,10.0.0.0/8]
  apikey:list --email E                   the user's keys (identifiers, never the tokens)
  apikey:delete --identifier I
  activity:import --server ID --file F    add audit entries from a JSON array (F = - reads stdin):
                                          [{"event": "server:power.start", "timestamp": "2026-03-01T12:00:00Z",
                                            "actor": EMAIL|USERNAME|null, "ip": "…", "properties": {…}, "description": "…"}]
  dbhost:create --name N --host H [--port P] --username U --password W [--max-databases K]
                                          a MariaDB/MySQL server for servers' databases; U needs CREATE, DROP,
                                          CREATE USER and GRANT OPTION on *.* (checked first); W = - reads
                                          it from standard input; prints the host without its password
  dbhost:list                             the database hosts and how many databases each holds
  dbhost:delete --name N                  refused while databases live on it
  demo                                    seed the demo data into an empty data dir

ID is a server's 8-character identifier or its uuid. The data dir is PANEL_DATA_DIR (default ./data).
Prints one JSON object as its last line on success.`;

/** The usage of one command (its lines of USAGE), or null for a command there is none of. */
export function usageOf(command: string): string | null {
  const lines = USAGE.split('\n');
  const first = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (first < 0) return null;
  let end = first + 1;
  while (end < lines.length && /^ {4,}\S/.test(lines[end] ?? '')) end += 1;
  return `Usage: npm run -s panel -- ${lines.slice(first, end).join('\n').trim()}`;
}

async function serverById(db: Db, id: string): Promise<ServerRow> {
  const server = await findServer(db, id);
  if (!server) throw new CliError(`No server with identifier or uuid ${id}.`);
  return server;
}

export { userJson } from './options';

export async function serverJson(db: Db, server: ServerRow) {
  const owner = await users.emailOf(db, server.owner_id);
  const allocation = server.allocation_id === null ? undefined : await allocations.findById(db, server.allocation_id);
  return {
    id: server.id,
    uuid: server.uuid,
    identifier: server.uuid_short,
    name: server.name,
    owner: owner ?? null,
    allocation: allocation ? `${allocation.ip}:${allocation.port}` : null,
    status: server.status,
  };
}

const COMMANDS: Record<string, Command> = {
  ...ACCOUNT_COMMANDS,
  ...DATABASE_HOST_COMMANDS,
  ...PASSWORD_RESET_COMMANDS,
  'server:create': {
    options: {
      owner: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      memory: { type: 'string' },
      disk: { type: 'string' },
      cpu: { type: 'string' },
      count: { type: 'string' },
      egg: { type: 'string' },
    },
    async run(opts, { db, nodes, clock, ports }) {
      const owner = await userByEmail(db, required(opts, 'owner'));
      const eggName = str(opts, 'egg');
      const egg = eggName === undefined ? undefined : await findEgg(db, eggName);
      if (eggName !== undefined && !egg) throw new CliError(`No egg named or numbered "${eggName}".`, 2);
      const name = required(opts, 'name');
      if (name.length > 185) throw new CliError('--name must be at most 185 characters.', 2);
      const count = int(opts, 'count');
      if (count !== undefined && (count < 1 || count > 10_000)) throw new CliError('--count must be between 1 and 10000.', 2);
      const make = (serverName: string) =>
        createServer(
          db,
          nodes,
          {
            ownerId: owner.id,
            name: serverName,
            description: str(opts, 'description'),
            memory: int(opts, 'memory'),
            disk: int(opts, 'disk'),
            cpu: int(opts, 'cpu'),
            eggId: egg?.id,
            ports,
          },
          clock.now(),
        );
      if (count === undefined) return serverJson(db, await make(name));
      // One process for many servers: seeding a fleet costs one start-up, not one per server.
      const width = String(count).length;
      const servers = [];
      for (let i = 1; i <= count; i += 1) servers.push(await serverJson(db, await make(`${name} ${String(i).padStart(width, '0')}`)));
      return { servers };
    },
  },
  'server:status': {
    options: { server: { type: 'string' }, status: { type: 'string' } },
    async run(opts, { db, clock }) {
      const server = await serverById(db, required(opts, 'server'));
      const wanted = required(opts, 'status');
      if (wanted !== 'none' && !(SERVER_STATUSES as readonly string[]).includes(wanted)) {
        throw new CliError(`--status must be one of ${[...SERVER_STATUSES, 'none'].join(', ')}; got "${wanted}".`, 2);
      }
      const status = wanted === 'none' ? null : (wanted as ServerStatus);
      return serverJson(db, await setServerStatus(db, server.uuid, status, clock.now()));
    },
  },
  'subuser:add': {
    options: { server: { type: 'string' }, email: { type: 'string' }, permissions: { type: 'string' } },
    async run(opts, { db, clock }) {
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

/** Runs one command and returns the object to print; throws CliError (or a service error). */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<object> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') throw new CliError(USAGE, 2);
  const command = COMMANDS[name];
  if (!command) throw new CliError(`Unknown command "${name}".\n\n${USAGE}`, 2);
  let values: Options;
  try {
    ({ values } = parseArgs({ args: [...rest], options: command.options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new CliError(`${name}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  return command.run(values, deps);
}

export const COMMAND_NAMES = Object.keys(COMMANDS);
