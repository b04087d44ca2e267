import { randomUUID } from 'node:crypto';
import { writeTransaction, type Db } from '../db';
import type { NodeDaemon } from '../daemon/capabilities';
import type { ServerRow } from '../db/schema';
import type { ServerStatus } from '../../src/contract';
import { notFound } from '../http/errors';
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

export async function ensureDefaultNode(db: Db): Promise<number> {
  const node = await db.selectFrom('nodes').select('id').orderBy('id').executeTakeFirst();
  if (node) return node.id;
  const row = await db
    .insertInto('nodes')
    .values({ uuid: randomUUID(), name: 'local', fqdn: '127.0.0.1', sftp_port: 2022, maintenance_mode: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function ensureDefaultEgg(db: Db): Promise<number> {
  const egg = await db.selectFrom('eggs').select('id').orderBy('id').executeTakeFirst();
  if (egg) return egg.id;
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('eggs')
      .values({
        uuid: randomUUID(),
        name: DEFAULT_EGG.name,
        startup: DEFAULT_EGG.startup,
        docker_images: JSON.stringify(DEFAULT_EGG.docker_images),
        features: JSON.stringify(DEFAULT_EGG.features),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('egg_variables')
      .values(DEFAULT_EGG.variables.map((v) => ({ ...v, egg_id: row.id, user_viewable: 1, user_editable: 1 })))
      .execute();
    return row.id;
  });
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

export async function createServer(db: Db, daemon: NodeDaemon, input: CreateServerInput, now: Date): Promise<ServerRow> {
  const nodeId = await ensureDefaultNode(db);
  const eggId = await ensureDefaultEgg(db);
  const egg = await db.selectFrom('eggs').selectAll().where('id', '=', eggId).executeTakeFirstOrThrow();
  const images = Object.values(JSON.parse(egg.docker_images) as Record<string, string>);
  const ip = input.ip ?? '127.0.0.1';
  const server = await writeTransaction(db, async (trx) => {
    let port = input.port;
    if (port === undefined) {
      const top = await trx
        .selectFrom('allocations')
        .select((eb) => eb.fn.max('port').as('max'))
        .where('node_id', '=', nodeId)
        .where('ip', '=', ip)
        .executeTakeFirst();
      port = Math.max(25564, Number(top?.max ?? 25564)) + 1;
    }
    // Unique short ids: regenerate on the rare collision of the first 8 characters.
    let uuid = randomUUID();
    while (await trx.selectFrom('servers').select('id').where('uuid_short', '=', uuid.slice(0, 8)).executeTakeFirst()) uuid = randomUUID();
    const ts = now.toISOString();
    const row = await trx
      .insertInto('servers')
      .values({
        uuid,
        uuid_short: uuid.slice(0, 8),
        external_id: input.externalId ?? null,
        node_id: nodeId,
        owner_id: input.ownerId,
        egg_id: eggId,
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
        docker_image: images[0] ?? 'ghcr.io/pterodactyl/yolks:java_21',
        database_limit: 2,
        allocation_limit: 3,
        backup_limit: 3,
        created_at: ts,
        updated_at: ts,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const allocation = await trx
      .insertInto('allocations')
      .values({ node_id: nodeId, ip, ip_alias: null, port, server_id: row.id, notes: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return trx.updateTable('servers').set({ allocation_id: allocation.id }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
  });
  await pushServerConfiguration(db, daemon, server.uuid);
  await daemon.servers.create(server.uuid);
  return server;
}

/** Finds a server by its 8-character identifier or its full uuid (pterodactyl-facts A1). */
export async function findServer(db: Db, id: string): Promise<ServerRow | undefined> {
  if (id.length === 8) return db.selectFrom('servers').selectAll().where('uuid_short', '=', id).executeTakeFirst();
  if (id.length === 36) return db.selectFrom('servers').selectAll().where('uuid', '=', id.toLowerCase()).executeTakeFirst();
  return undefined;
}

export async function setServerStatus(db: Db, id: string, status: ServerStatus | null, now: Date): Promise<ServerRow> {
  const server = await findServer(db, id);
  if (!server) throw notFound();
  return db
    .updateTable('servers')
    .set({ status, updated_at: now.toISOString() })
    .where('id', '=', server.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
