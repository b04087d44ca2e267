import { randomUUID } from 'node:crypto';
import { writeTransaction, type Db } from '../db';
import type { NodeDaemons } from './node-daemons';
import { allocations, eggs, nodes, servers } from '../db/repos';
import type { NodeRow, ServerRow } from '../db/schema';
import type { ServerStatus } from '../../src/contract';
import { notFound } from '../http/errors';
import { randomToken } from '../lib/crypto';
import { pushServerConfiguration } from './server-configuration';

/*
 * Creating servers (CLI, demo data, tests). The embedded panel has one local node and a default
 * egg; both are created on first use.
 */

const DEFAULT_EGG = {
  name: 'Paper',
  startup: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar {{SERVER_JARFILE}}',
  docker_images: { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  features: ['eula', 'java_version', 'pid_limit'],
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
      description: 'The version of Minecraft to download. Leave at latest to always get the newest.',
      env_variable: 'MINECRAFT_VERSION',
      default_value: 'latest',
      rules: 'nullable|string|max:20',
    },
    {
      name: 'Build Number',
      description: 'The build number of the Paper release.',
      env_variable: 'BUILD_NUMBER',
      default_value: 'latest',
      rules: 'required|string|max:20',
    },
  ],
};

export async function ensureDefaultNode(db: Db): Promise<NodeRow> {
  const existing = await nodes.first(db);
  if (existing) return existing;
  // The node of the daemon inside this panel: no daemon address of its own.
  const node = { uuid: randomUUID(), name: 'local', fqdn: '127.0.0.1', sftp_port: 2022, maintenance_mode: 0, daemon_base_url: null };
  return nodes.insert(db, { ...node, daemon_token: randomToken(32) });
}

export async function ensureDefaultEgg(db: Db): Promise<number> {
  const egg = await eggs.first(db);
  if (egg) return egg.id;
  return writeTransaction(db, (trx) =>
    eggs.insert(trx, {
      uuid: randomUUID(),
      name: DEFAULT_EGG.name,
      startup: DEFAULT_EGG.startup,
      docker_images: DEFAULT_EGG.docker_images,
      features: DEFAULT_EGG.features,
      variables: DEFAULT_EGG.variables.map((v) => ({ ...v, user_viewable: 1, user_editable: 1 })),
    }),
  );
}

export interface CreateServerInput {
  ownerId: number;
  name: string;
  description?: string;
  memory?: number;
  disk?: number;
  cpu?: number;
  externalId?: string | null;
  /** Port of the primary allocation; the next free one from 25565 when absent. */
  port?: number;
  ip?: string;
}

export async function createServer(db: Db, daemons: NodeDaemons, input: CreateServerInput, now: Date): Promise<ServerRow> {
  const node = await ensureDefaultNode(db);
  const nodeId = node.id;
  const daemon = daemons.forNode(node);
  const egg = await eggs.findById(db, await ensureDefaultEgg(db));
  if (!egg) throw new Error('The default egg is missing.');
  const ip = input.ip ?? '127.0.0.1';
  const server = await writeTransaction(db, async (trx) => {
    const port = input.port ?? Math.max(25564, (await allocations.highestPort(trx, nodeId, ip)) ?? 25564) + 1;
    // Unique short ids: regenerate on the rare collision of the first 8 characters.
    let uuid = randomUUID();
    while (await servers.shortIdTaken(trx, uuid.slice(0, 8))) uuid = randomUUID();
    const ts = now.toISOString();
    const row = await servers.insert(trx, {
      uuid,
      uuid_short: uuid.slice(0, 8),
      external_id: input.externalId ?? null,
      node_id: nodeId,
      owner_id: input.ownerId,
      egg_id: egg.id,
      name: input.name,
      description: input.description ?? '',
      status: null,
      is_transferring: 0,
      memory: input.memory ?? 1024,
      swap: 0,
      disk: input.disk ?? 5120,
      io: 500,
      cpu: input.cpu ?? 100,
      threads: null,
      oom_disabled: 1,
      allocation_id: null,
      startup: egg.startup,
      docker_image: Object.values(egg.docker_images)[0] ?? 'ghcr.io/pterodactyl/yolks:java_21',
      database_limit: 2,
      allocation_limit: 3,
      backup_limit: 3,
      created_at: ts,
      updated_at: ts,
    });
    const allocation = await allocations.insert(trx, { node_id: nodeId, ip, ip_alias: null, port, server_id: row.id, notes: null });
    return servers.setPrimaryAllocation(trx, row.id, allocation.id);
  });
  await pushServerConfiguration(db, daemon, server.uuid);
  await daemon.servers.create(server.uuid);
  return server;
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
