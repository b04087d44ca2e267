import type { Db } from '../db';
import type { NodeDaemon } from '../daemon/capabilities';
import { allocations, nodes, servers as serverRepo, users } from '../db/repos';
import type { NodeDaemons } from '../services/node-daemons';
import type { ServerRow } from '../db/schema';
import { SERVER_STATUSES, type ServerStatus } from '../../src/contract';
import { HostUnavailable } from '../services/server-databases';
import { BuildError, changeServerBuild, type BuildChange } from '../services/server-build';
import { deleteServer } from '../services/server-deletion';
import { NodeError } from '../services/nodes';
import { ADD_SERVER_HINT } from '../services/first-start';
import { createServer, findEgg, findServer, setServerStatus } from '../services/servers';
import { CliError, int, logCliActivity, required, str, userByEmail, type Command, type Options } from './options';
import { table, withText } from './table';

/** The admin CLI's commands about servers: create, list, change, delete, and set a status. */

export const NO_SERVERS = `No servers yet. Create one (its owner must be a user: see user:list) with:\n  ${ADD_SERVER_HINT}`;

export async function serverById(db: Db, id: string): Promise<ServerRow> {
  const server = await findServer(db, id);
  if (!server) throw new CliError(`No server with identifier or uuid ${id}.`);
  return server;
}

export async function serverJson(db: Db, server: ServerRow) {
  const owner = await users.emailOf(db, server.owner_id);
  const allocation = server.allocation_id === null ? undefined : await allocations.findById(db, server.allocation_id);
  const node = await nodes.findById(db, server.node_id);
  return {
    id: server.id,
    uuid: server.uuid,
    identifier: server.uuid_short,
    name: server.name,
    owner: owner ?? null,
    allocation: allocation ? `${allocation.ip}:${allocation.port}` : null,
    node: node?.name ?? null,
    status: server.status,
  };
}

const LIMITS = { memory: 'MiB', disk: 'MiB', cpu: '%' } as const;

/** A limit option: a whole number, 0 meaning unlimited (as on creation); undefined when not given. */
function limit(opts: Options, name: keyof typeof LIMITS): number | undefined {
  const value = int(opts, name);
  if (value !== undefined && value > 10_000_000) throw new CliError(`--${name} must be at most 10000000 (${LIMITS[name]}).`, 2);
  return value;
}

/** A service refusal (a bad image, a database host that cannot be reached) as the CLI's one-line error. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BuildError || error instanceof NodeError) throw new CliError(error.message, 2);
    if (error instanceof HostUnavailable) throw new CliError(`A database host refused: ${error.reason}. Nothing more was removed; run it again.`);
    throw error;
  }
}

export const SERVER_COMMANDS: Record<string, Command> = {
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
      node: { type: 'string' },
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
      const base = { ownerId: owner.id, description: str(opts, 'description'), memory: limit(opts, 'memory'), disk: limit(opts, 'disk') };
      const node = str(opts, 'node');
      const make = (serverName: string) =>
        refusing(() => createServer(db, nodes, { ...base, name: serverName, cpu: limit(opts, 'cpu'), eggId: egg?.id, ports, node }, clock.now()));
      if (count === undefined) return serverJson(db, await make(name));
      // One process for many servers: seeding a fleet costs one start-up, not one per server.
      const width = String(count).length;
      const servers = [];
      for (let i = 1; i <= count; i += 1) servers.push(await serverJson(db, await make(`${name} ${String(i).padStart(width, '0')}`)));
      return { servers };
    },
  },
  'server:list': {
    options: { json: { type: 'boolean' } },
    async run(opts, { db }) {
      const rows = await serverRepo.overview(db);
      const servers = rows.map((s) => ({
        identifier: s.uuid_short,
        uuid: s.uuid,
        name: s.name,
        owner: s.owner,
        egg: s.egg,
        allocation: s.ip === null || s.port === null ? null : `${s.ip}:${s.port}`,
        status: s.status,
        memory: s.memory,
        disk: s.disk,
        cpu: s.cpu,
        image: s.docker_image,
      }));
      const unit = (n: number, suffix: string) => (n === 0 ? 'unlimited' : `${n} ${suffix}`);
      const text = table(
        ['ID', 'NAME', 'OWNER', 'EGG', 'ADDRESS', 'STATUS', 'MEMORY', 'DISK', 'CPU'],
        servers.map((s) => [
          s.identifier,
          s.name,
          s.owner,
          s.egg,
          s.allocation ?? '-',
          s.status ?? 'ok',
          unit(s.memory, 'MiB'),
          unit(s.disk, 'MiB'),
          unit(s.cpu, '%'),
        ]),
        NO_SERVERS,
      );
      return withText({ servers }, opts.json === true ? undefined : text);
    },
  },
  'server:update': {
    options: {
      server: { type: 'string' },
      memory: { type: 'string' },
      disk: { type: 'string' },
      cpu: { type: 'string' },
      owner: { type: 'string' },
      egg: { type: 'string' },
      image: { type: 'string' },
    },
    async run(opts, deps) {
      const { db, nodes, clock } = deps;
      const server = await serverById(db, required(opts, 'server'));
      const change: BuildChange = { memory: limit(opts, 'memory'), disk: limit(opts, 'disk'), cpu: limit(opts, 'cpu'), image: str(opts, 'image') };
      const ownerEmail = str(opts, 'owner');
      if (ownerEmail !== undefined) change.ownerId = (await userByEmail(db, ownerEmail)).id;
      const eggName = str(opts, 'egg');
      if (eggName !== undefined) {
        const egg = await findEgg(db, eggName);
        if (!egg) throw new CliError(`No egg named or numbered "${eggName}".`, 2);
        change.eggId = egg.id;
      }
      if (Object.values(change).every((v) => v === undefined)) {
        throw new CliError('Nothing to change: give --memory, --disk, --cpu, --owner, --egg or --image.', 2);
      }
      const { server: updated, changes, revoked } = await refusing(() => changeServerBuild(db, nodes, server, change, clock.now()));
      const image = changes.find((c) => c.field === 'image');
      if (image) await logCliActivity(deps, 'server:startup.image', { old: image.old, new: image.new }, [{ type: 'server', id: server.id }]);
      const others = changes.filter((c) => c.field !== 'image');
      if (others.length > 0) {
        const summary = others.map((c) => `${c.field} from ${c.old} to ${c.new}`).join(', ');
        await logCliActivity(deps, 'server:settings.build', { summary, changes: others }, [{ type: 'server', id: server.id }]);
      }
      return {
        ...(await serverJson(db, updated)),
        changes,
        ...(changes.some((c) => c.field === 'owner') ? { previous_owner_tokens_revoked: revoked } : {}),
        ...(changes.some((c) => c.field === 'egg')
          ? { note: "The server runs the new egg's startup command from its next start; reinstall it for the egg's install script." }
          : {}),
      };
    },
  },
  'server:delete': {
    options: { server: { type: 'string' } },
    async run(opts, { db, nodes, box }) {
      const server = await serverById(db, required(opts, 'server'));
      const deleted = await refusing(() => deleteServer(db, nodes, box, server));
      return { deleted: server.uuid_short, name: server.name, uuid: deleted.server, databases_dropped: deleted.databases };
    },
  },
  'server:status': {
    options: { server: { type: 'string' }, status: { type: 'string' } },
    async run(opts, { db, nodes, clock }) {
      const server = await serverById(db, required(opts, 'server'));
      const wanted = required(opts, 'status');
      if (wanted !== 'none' && !(SERVER_STATUSES as readonly string[]).includes(wanted)) {
        throw new CliError(`--status must be one of ${[...SERVER_STATUSES, 'none'].join(', ')}; got "${wanted}".`, 2);
      }
      const status = wanted === 'none' ? null : (wanted as ServerStatus);
      const changed = await setServerStatus(db, server.uuid, status, clock.now());
      // The node hears of it at once (a suspension stops the server).
      await (await daemonOf(db, nodes, changed)).servers.sync(changed.uuid);
      return serverJson(db, changed);
    },
  },
};

/** The daemon of the server's node (the local one, handing its calls to a running panel, in the CLI). */
export async function daemonOf(db: Db, daemons: NodeDaemons, server: ServerRow): Promise<NodeDaemon> {
  const node = await nodes.findById(db, server.node_id);
  if (!node) throw new CliError(`Server ${server.uuid_short} has no node.`);
  return daemons.forNode(node);
}
