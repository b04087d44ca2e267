import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { REPO_ROOT } from '../lib/spa-build';
import { writeTransaction, type Db } from '../db';
import type { NodeDaemons } from './node-daemons';
import { allocations, eggs, nodes, servers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import type { ServerStatus } from '../../src/contract';
import { notFound } from '../http/errors';
import { takeFreePort, type PortRange } from './allocations';
import { placeServer } from './placement';
import { DEFAULT_LOCATION, ensureLocation } from './locations';
import { handleDaemonEvent } from './daemon-events';
import { insertServer } from './server-creation';
import { DEFAULT_ALLOCATION_PORTS } from '../config';
import type { DaemonEvent, NodeDaemon } from '../daemon/capabilities';
import { DEMO_INSTALL_SCRIPT } from '../db/migrations/005-egg-install-scripts';

/*
 * Creating servers (CLI, demo data, tests). The embedded panel has one local node and two eggs of
 * its own, created on first use: the demo game (the default: a Node program from this repository,
 * laid out in each new server's volume by the egg's install script, so a server starts on any
 * machine with Node) and Paper (which needs Java and a server jar of one's own).
 */

/** The program the demo game egg runs, part of the repository. */
export const DEMO_GAME_PROGRAM = path.join(REPO_ROOT, 'server', 'daemon', 'local', 'demo-game.mjs');

interface BuiltInEgg extends Omit<eggs.NewEgg, 'variables'> {
  variables: Omit<eggs.NewEgg['variables'][number], 'user_viewable' | 'user_editable'>[];
}

const DEMO_EGG: BuiltInEgg = {
  uuid: '5c0a6a43-9a53-4d8e-8f4c-6d3f2a9e7b10',
  name: 'Demo game',
  startup: 'node demo-game.mjs --port {{SERVER_PORT}}',
  docker_images: { 'Node.js 22': 'ghcr.io/parkervcp/yolks:nodejs_22' },
  features: [],
  // The program's `Done (0.012s)! For help, type "help"`.
  done: ['For help, type "help"'],
  stop: 'stop',
  scriptInstall: DEMO_INSTALL_SCRIPT,
  variables: [
    {
      name: 'Message of the day',
      description: 'What the server says to players as they join.',
      env_variable: 'MOTD',
      default_value: 'An Aerie demo server',
      rules: 'required|string|max:60',
    },
    {
      name: 'Max players',
      description: 'How many players may be online at once.',
      env_variable: 'MAX_PLAYERS',
      default_value: '20',
      rules: 'required|integer|between:1,100',
    },
  ],
};

const PAPER_EGG: BuiltInEgg = {
  uuid: '9b2d3f6e-1c4a-4b7e-a0d5-3e8f7c6b5a42',
  name: 'Paper',
  startup: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar {{SERVER_JARFILE}}',
  docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  features: ['eula', 'java_version', 'pid_limit'],
  done: [')! For help, type '],
  stop: 'stop',
  variables: [
    {
      name: 'Server Jar File',
      description: 'The name of the server jarfile to run the server with.',
      env_variable: 'SERVER_JARFILE',
      default_value: 'server.jar',
      rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
    },
    {
      name: 'Minecraft Version',
      description: 'The Minecraft version of the server jar you upload; for your records only, as this egg downloads nothing.',
      env_variable: 'MINECRAFT_VERSION',
      default_value: 'latest',
      rules: 'nullable|string|max:20',
    },
    {
      name: 'Build Number',
      description: 'The Paper build of the server jar you upload; for your records only, as this egg downloads nothing.',
      env_variable: 'BUILD_NUMBER',
      default_value: 'latest',
      rules: 'required|string|max:20',
    },
  ],
};

const BUILT_IN_EGGS = [DEMO_EGG, PAPER_EGG];

export async function ensureDefaultNode(db: Db, daemons: Pick<NodeDaemons, 'newCredentials'>): Promise<NodeRow> {
  const existing = await nodes.local(db);
  if (existing) return existing;
  // The node of the daemon inside this panel: no daemon address of its own.
  const node = { uuid: randomUUID(), name: 'local', fqdn: '127.0.0.1', sftp_port: 2022, maintenance_mode: 0, daemon_base_url: null };
  // In the "default" location, as every node is in one (the reference requires it; deploy picks by location).
  const location = await ensureLocation(db, DEFAULT_LOCATION, new Date());
  return nodes.insert(db, { ...node, location_id: location.id, ...daemons.newCredentials() });
}

/**
 * Adds the built-in eggs a panel lacks (one of the same uuid or name counts: a panel from before
 * the demo game has a Paper egg of its own) and returns the default one's id, the demo game's.
 */
export async function ensureDefaultEgg(db: Db): Promise<number> {
  const existing = (trx: Db, egg: BuiltInEgg) => eggs.findByUuid(trx, egg.uuid).then((found) => found ?? eggs.findByIdOrName(trx, egg.name));
  const demo = await existing(db, DEMO_EGG);
  // Read first: creating servers in bulk checks this every time.
  if (demo && (await existing(db, PAPER_EGG))) return demo.id;
  return writeTransaction(db, async (trx) => {
    for (const egg of BUILT_IN_EGGS) {
      if (await existing(trx, egg)) continue;
      await eggs.insert(trx, { ...egg, variables: egg.variables.map((v) => ({ ...v, user_viewable: 1, user_editable: 1 })) });
    }
    const created = await existing(trx, DEMO_EGG);
    if (!created) throw new Error('The demo game egg is missing.');
    return created.id;
  });
}

/** An egg by id or name (the built-in ones are created first), or undefined. */
export async function findEgg(db: Db, idOrName: string): Promise<eggs.Egg | undefined> {
  await ensureDefaultEgg(db);
  return eggs.findByIdOrName(db, idOrName);
}

export interface CreateServerInput {
  ownerId: number;
  name: string;
  description?: string;
  memory?: number;
  disk?: number;
  cpu?: number;
  externalId?: string | null;
  /** Port of the primary allocation; the lowest free one of `ports` when absent. */
  port?: number;
  /** The panel's port range (PANEL_ALLOCATION_PORTS), for a node without its own. */
  ports?: PortRange;
  /** The primary allocation's address; the node's own (`allocation_ip`), else 127.0.0.1, when absent. */
  ip?: string;
  /** The node's name or id; the one with the most free memory and a free port when absent (`placement.ts`). */
  node?: string;
  /** The egg's id; the demo game when absent. */
  eggId?: number;
}

export async function createServer(db: Db, daemons: NodeDaemons, input: CreateServerInput, now: Date): Promise<ServerRow> {
  await ensureDefaultNode(db, daemons);
  const memory = input.memory ?? 1024;
  const { node, ip, range } = await placeServer(db, {
    node: input.node,
    memory,
    panelPorts: input.ports ?? DEFAULT_ALLOCATION_PORTS,
    ip: input.ip,
    port: input.port,
  });
  const nodeId = node.id;
  const daemon = daemons.forNode(node);
  const defaultEgg = await ensureDefaultEgg(db);
  const egg = await eggs.findById(db, input.eggId ?? defaultEgg);
  if (!egg) throw notFound();
  const server = await writeTransaction(db, async (trx) => {
    const fields = {
      external_id: input.externalId ?? null,
      node_id: nodeId,
      owner_id: input.ownerId,
      egg_id: egg.id,
      name: input.name,
      description: input.description ?? '',
      memory,
      swap: 0,
      disk: input.disk ?? 5120,
      io: 500,
      cpu: input.cpu ?? 100,
      threads: null,
      // The memory limit is enforced (the reference's default; issue 21).
      oom_disabled: 0,
      startup: egg.startup,
      docker_image: Object.values(egg.docker_images)[0] ?? 'ghcr.io/pterodactyl/yolks:java_21',
      database_limit: 2,
      allocation_limit: 3,
      backup_limit: 3,
    };
    const allocate = async (serverId: number) =>
      input.port === undefined
        ? (await takeFreePort(trx, { nodeId, ip, range, serverId })).id
        : (await allocations.insert(trx, { node_id: nodeId, ip, ip_alias: null, port: input.port, server_id: serverId, notes: null })).id;
    // No values stored: each variable reads as its egg's default until someone sets it.
    return insertServer(trx, fields, new Map(), allocate, now);
  });
  // The node fetches the configuration itself as it creates the server (Wings does the same).
  return installServer(db, daemon, server, now);
}

/**
 * Has the node create the server and run its install. The local node answers once the install
 * has ended and reports it on its event channel, which the panel's own listener handles too
 * (`app.ts`); it is handled here as well, idempotently, so a server created where no panel listens
 * (the admin CLI) leaves `installing` just the same, and the caller sees the outcome.
 */
export async function installServer(db: Db, daemon: NodeDaemon, server: ServerRow, now: Date): Promise<ServerRow> {
  let report: DaemonEvent | undefined;
  const unsubscribe = daemon.events.subscribe((event) => {
    if (event.type === 'install.completed' && event.server === server.uuid) report = event;
  });
  try {
    await daemon.servers.create(server.uuid);
  } catch (error) {
    // As the reference's ServerCreationService: a node that refuses the creation or cannot be
    // reached leaves no server behind (a billing module retries the whole order), and whatever
    // the node may have begun is removed where it can be. A failing install script is not this:
    // the node reports it, and the server stays, install_failed.
    await daemon.servers.delete(server.uuid).catch(() => undefined);
    await servers.remove(db, server.id);
    throw error;
  } finally {
    unsubscribe();
  }
  if (report) await handleDaemonEvent({ db, clock: { now: () => now }, warn: () => undefined }, report);
  return (await servers.findById(db, server.id)) ?? server;
}

/**
 * At start, before anything else runs on the local node: the servers left `installing`, whose
 * install was cut off by the last shutdown (a crash, a restart) and will never report its end.
 */
export function interruptedInstalls(db: Db): Promise<ServerRow[]> {
  return servers.localWithStatus(db, 'installing');
}

/**
 * Runs those installs again, as reinstalls: they keep the servers' files, and a failure leaves
 * `reinstall_failed`, from which the owner may try again. Call it once the panel listens to the
 * node's events, which end them.
 */
export async function resumeInstalls(daemons: NodeDaemons, interrupted: readonly ServerRow[]): Promise<void> {
  for (const server of interrupted) await daemons.local.servers.reinstall(server.uuid);
}

/** Finds a server by its 8-character identifier or its full uuid; any other string names no server. */
export function findServer(db: Db, id: string): Promise<ServerRow | undefined> {
  return servers.findByIdentifier(db, id);
}

export async function setServerStatus(db: Db, id: string, status: ServerStatus | null, now: Date): Promise<ServerRow> {
  const server = await findServer(db, id);
  if (!server) throw notFound();
  return servers.setStatus(db, server.id, status, now);
}
