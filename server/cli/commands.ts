import { parseArgs } from 'node:util';
import type { Db } from '../db';
import { allocations, users } from '../db/repos';
import type { NodeDaemons } from '../services/node-daemons';
import type { ServerRow, UserRow } from '../db/schema';
import { SERVER_STATUSES, type ServerStatus } from '../../src/contract';
import type { Clock } from '../lib/time';
import { createApiKey } from '../services/api-keys';
import { ImportError, importActivity } from '../services/activity-import';
import { readImportFile } from './activity-import';
import { seedDemo, isPanelEmpty } from '../services/demo';
import { createServer, findServer, setServerStatus } from '../services/servers';
import { addSubuser } from '../services/subusers';
import { createUser, enableTotp, findUserByEmail } from '../services/users';

/** A mistake on the command line or a refused action: printed as one line, non-zero exit. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface CliDeps {
  db: Db;
  nodes: NodeDaemons;
  clock: Clock;
}

export const USAGE = `Usage: npm run -s panel -- <command> [options]

Commands:
  user:create --email E --username U --password P [--admin] [--first-name F] [--last-name L]
  user:2fa --email E                      turn TOTP on; prints the secret and recovery tokens
  server:create --owner EMAIL --name N [--description D] [--memory MB] [--disk MB] [--cpu PCT] [--count K]
                                          with --count, K servers named "N 01"…; prints {"servers": [...]}
  server:status --server ID --status suspended|installing|install_failed|reinstall_failed|restoring_backup|none
  subuser:add --server ID --email E --permissions a,b,c
  apikey:create --email E [--description D]
  activity:import --server ID --file F    add audit entries from a JSON array (F = - reads stdin):
                                          [{"event": "server:power.start", "timestamp": "2026-03-01T12:00:00Z",
                                            "actor": EMAIL|USERNAME|null, "ip": "…", "properties": {…}, "description": "…"}]
  demo                                    seed the demo data into an empty data dir

ID is a server's 8-character identifier or its uuid. The data dir is PANEL_DATA_DIR (default ./data).
Prints one JSON object as its last line on success.`;

type Options = Record<string, string | boolean | undefined>;
type Handler = (opts: Options, deps: CliDeps) => Promise<object>;

interface Command {
  options: Record<string, { type: 'string' | 'boolean' }>;
  run: Handler;
}

function str(opts: Options, name: string): string | undefined {
  const value = opts[name];
  return typeof value === 'string' ? value : undefined;
}

function required(opts: Options, name: string): string {
  const value = str(opts, name);
  if (value === undefined || value.trim() === '') throw new CliError(`Missing --${name}.`, 2);
  return value;
}

function int(opts: Options, name: string): number | undefined {
  const value = str(opts, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a whole number, got "${value}".`, 2);
  return Number(value);
}

async function userByEmail(db: Db, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`No user with email ${email}.`);
  return user;
}

async function serverById(db: Db, id: string): Promise<ServerRow> {
  const server = await findServer(db, id);
  if (!server) throw new CliError(`No server with identifier or uuid ${id}.`);
  return server;
}

export function userJson(user: UserRow) {
  return { id: user.id, uuid: user.uuid, username: user.username, email: user.email, admin: user.root_admin === 1, use_totp: user.use_totp === 1 };
}

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
  'user:create': {
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    async run(opts, { db, clock }) {
      const email = required(opts, 'email');
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`--email must be an e-mail address, got "${email}".`, 2);
      // createUser compares emails exactly; the unique index ignores case, so ask the same way first.
      if (await findUserByEmail(db, email)) throw new CliError(`A user with the email ${email} already exists.`);
      const user = await createUser(
        db,
        {
          email,
          username: required(opts, 'username'),
          password: required(opts, 'password'),
          admin: opts.admin === true,
          firstName: str(opts, 'first-name'),
          lastName: str(opts, 'last-name'),
        },
        clock.now(),
      );
      return userJson(user);
    },
  },
  'user:2fa': {
    options: { email: { type: 'string' } },
    async run(opts, { db, clock }) {
      const user = await userByEmail(db, required(opts, 'email'));
      return enableTotp(db, user.id, clock.now());
    },
  },
  'server:create': {
    options: {
      owner: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      memory: { type: 'string' },
      disk: { type: 'string' },
      cpu: { type: 'string' },
      count: { type: 'string' },
    },
    async run(opts, { db, nodes, clock }) {
      const owner = await userByEmail(db, required(opts, 'owner'));
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
      const { subuser, user } = await addSubuser(db, server, required(opts, 'email'), permissions, clock.now());
      return {
        id: subuser.id,
        uuid: user.uuid,
        server: server.uuid_short,
        username: user.username,
        email: user.email,
        permissions: subuser.permissions,
      };
    },
  },
  'apikey:create': {
    options: { email: { type: 'string' }, description: { type: 'string' } },
    async run(opts, { db, clock }) {
      const user = await userByEmail(db, required(opts, 'email'));
      const key = await createApiKey(db, user.id, str(opts, 'description') ?? 'Created with the admin CLI', clock.now());
      return { token: key.token, identifier: key.identifier };
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
    async run(_opts, { db, nodes, clock }) {
      if (!(await isPanelEmpty(db))) {
        throw new CliError(
          'The data dir already has users: demo data is only seeded into an empty data dir (set PANEL_DATA_DIR to a new directory).',
        );
      }
      return seedDemo(db, nodes, clock.now());
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
