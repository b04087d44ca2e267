import fs from 'node:fs';
import { DatabaseHostError, deleteHost, hostView, listHosts, saveHost } from '../services/database-hosts';
import { table, withText } from './table';
import { CliError, int, required, type CliDeps, type Command } from './options';

/** A host's refusal (no connection, missing privileges, databases left) as the CLI's one-line error. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseHostError) throw new CliError(error.message);
    throw error;
  }
}

/** `--password -` reads it from standard input, which keeps it out of the process list. */
function hostPassword(value: string, deps: CliDeps): string {
  if (value !== '-') return value;
  return (deps.readStdin ?? (() => fs.readFileSync(0, 'utf8')))().replace(/\r?\n$/, '');
}

/** The admin CLI's commands about database hosts; a host's password is never printed. */
export const DATABASE_HOST_COMMANDS: Record<string, Command> = {
  'dbhost:create': {
    options: {
      name: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      'max-databases': { type: 'string' },
      'max-connections-per-user': { type: 'string' },
    },
    async run(opts, deps) {
      const port = int(opts, 'port') ?? 3306;
      if (port < 1 || port > 65535) throw new CliError('--port must be between 1 and 65535.', 2);
      // Each database user's MAX_USER_CONNECTIONS: a tenant then holds at most this many of the host's.
      const maxConnectionsPerUser = int(opts, 'max-connections-per-user') ?? 10;
      if (maxConnectionsPerUser < 1 || maxConnectionsPerUser > 100_000) {
        throw new CliError('--max-connections-per-user must be between 1 and 100000.', 2);
      }
      const input = {
        name: required(opts, 'name'),
        host: required(opts, 'host'),
        port,
        username: required(opts, 'username'),
        password: hostPassword(required(opts, 'password'), deps),
        maxDatabases: int(opts, 'max-databases') ?? null,
        maxConnectionsPerUser,
      };
      const row = await refusing(() => saveHost(deps.db, deps.box, input, deps.clock.now()));
      return hostView(row);
    },
  },
  'dbhost:list': {
    options: { json: { type: 'boolean' } },
    async run(opts, { db }) {
      const hosts = await listHosts(db);
      const text = table(
        ['NAME', 'ADDRESS', 'USERNAME', 'DATABASES', 'MAX DATABASES', 'CONNECTIONS PER USER'],
        hosts.map((h) => [
          h.name,
          `${h.host}:${h.port}`,
          h.username,
          String(h.databases),
          String(h.max_databases ?? 'no limit'),
          String(h.max_connections_per_user),
        ]),
        'No database hosts. Add one with: npm run -s panel -- dbhost:create --name N --host H --username U --password -',
      );
      return withText({ hosts }, opts.json === true ? undefined : text);
    },
  },
  'dbhost:delete': {
    options: { name: { type: 'string' } },
    async run(opts, { db }) {
      return refusing(() => deleteHost(db, required(opts, 'name')));
    },
  },
};
