import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ServerListQuery, ServerStatus } from '../../../src/contract';
import type { Db } from '../index';
import type { Database, NewServer, ServerRow } from '../schema';
import { escapeLike, likeExpr } from './like';

/** Servers, the values of their egg variables, and the server list query. */

/** By its 8-character identifier or its full uuid; anything else is no server. */
export function findByIdentifier(db: Db, id: string): Promise<ServerRow | undefined> {
  if (id.length === 8) return db.selectFrom('servers').selectAll().where('uuid_short', '=', id).executeTakeFirst();
  if (id.length === 36) return db.selectFrom('servers').selectAll().where('uuid', '=', id.toLowerCase()).executeTakeFirst();
  return Promise.resolve(undefined);
}

export function findById(db: Db, id: number): Promise<ServerRow | undefined> {
  return db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function shortIdTaken(db: Db, short: string): Promise<boolean> {
  return (await db.selectFrom('servers').select('id').where('uuid_short', '=', short).executeTakeFirst()) !== undefined;
}

export function insert(db: Db, server: NewServer): Promise<ServerRow> {
  return db.insertInto('servers').values(server).returningAll().executeTakeFirstOrThrow();
}

export function setPrimaryAllocation(db: Db, serverId: number, allocationId: number): Promise<ServerRow> {
  return db.updateTable('servers').set({ allocation_id: allocationId }).where('id', '=', serverId).returningAll().executeTakeFirstOrThrow();
}

/** A server's own settings (name, description, image), stamped as changed now. */
export function update(
  db: Db,
  serverId: number,
  changes: Partial<Pick<ServerRow, 'name' | 'description' | 'docker_image'>>,
  now: Date,
): Promise<ServerRow> {
  return db
    .updateTable('servers')
    .set({ ...changes, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The servers of the nodes this process serves itself (no daemon URL) in a status. */
export function localWithStatus(db: Db, status: ServerStatus): Promise<ServerRow[]> {
  return db
    .selectFrom('servers')
    .innerJoin('nodes', 'nodes.id', 'servers.node_id')
    .selectAll('servers')
    .where('servers.status', '=', status)
    .where('nodes.daemon_base_url', 'is', null)
    .orderBy('servers.id')
    .execute();
}

/** The servers of one node in any of these statuses. */
export function ofNodeWithStatus(db: Db, nodeId: number, statuses: readonly ServerStatus[]): Promise<ServerRow[]> {
  return db.selectFrom('servers').selectAll().where('node_id', '=', nodeId).where('status', 'in', statuses).orderBy('id').execute();
}

export function setStatus(db: Db, serverId: number, status: ServerStatus | null, now: Date): Promise<ServerRow> {
  return db.updateTable('servers').set({ status, updated_at: now.toISOString() }).where('id', '=', serverId).returningAll().executeTakeFirstOrThrow();
}

/** Sets the status only if it is still `from`; false when it had changed (so two callers never both win). */
export async function setStatusFrom(db: Db, serverId: number, from: ServerStatus | null, status: ServerStatus | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('servers')
    .set({ status, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .where('status', from === null ? 'is' : '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `server_id:variable_id` → value, for the servers' own variable values. */
export async function variableValues(db: Db, serverIds: readonly number[]): Promise<Map<string, string>> {
  if (serverIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('server_variables')
    .select(['server_id', 'variable_id', 'variable_value'])
    .where('server_id', 'in', serverIds)
    .execute();
  return new Map(rows.map((v) => [`${v.server_id}:${v.variable_id}`, v.variable_value]));
}

export async function insertVariableValues(db: Db, values: { server_id: number; variable_id: number; variable_value: string }[]): Promise<void> {
  if (values.length) await db.insertInto('server_variables').values(values).execute();
}

/*
 * The server list of GET /api/client: a `type` scope, the
 * partial filters and the free-text `filter[*]`, ANDed, ordered by id, one page at a time.
 */

type Eb = ExpressionBuilder<Database, 'servers'>;

export interface ListViewer {
  userId: number;
  isAdmin: boolean;
}

export async function list(db: Db, viewer: ListViewer, query: ServerListQuery): Promise<{ servers: ServerRow[]; total: number }> {
  // The admin scopes answer an empty list, not 403, for everyone else, so a non-admin learns nothing from them.
  if ((query.type === 'admin' || query.type === 'admin-all') && !viewer.isAdmin) return { servers: [], total: 0 };

  const where = (eb: Eb): Expression<SqlBool> => eb.and([scope(eb, viewer, query.type), ...filters(eb, query)]);
  const countRow = await db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(where)
    .executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const offset = (query.page - 1) * query.per_page;
  const servers =
    total > offset ? await db.selectFrom('servers').selectAll().where(where).orderBy('id').limit(query.per_page).offset(offset).execute() : [];
  return { servers, total };
}

/** Every server `viewer` can open, with its node (all of them for an admin): where their tokens may live. */
export async function reachableBy(db: Db, viewer: ListViewer): Promise<Pick<ServerRow, 'uuid' | 'node_id'>[]> {
  return db
    .selectFrom('servers')
    .select(['uuid', 'node_id'])
    .where((eb) => scope(eb, viewer, viewer.isAdmin ? 'admin-all' : undefined))
    .execute();
}

function scope(eb: Eb, viewer: ListViewer, type: ServerListQuery['type']): Expression<SqlBool> {
  const shared = eb.selectFrom('subusers').select('subusers.server_id').where('subusers.user_id', '=', viewer.userId);
  switch (type) {
    case 'owner':
      return eb('servers.owner_id', '=', viewer.userId);
    case 'admin':
      return eb.and([eb('servers.owner_id', '!=', viewer.userId), eb('servers.id', 'not in', shared)]);
    case 'admin-all':
      return eb.lit(true);
    default:
      return eb.or([eb('servers.owner_id', '=', viewer.userId), eb('servers.id', 'in', shared)]);
  }
}

function filters(eb: Eb, query: ServerListQuery): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  const partial = [
    ['servers.uuid', query['filter[uuid]']],
    ['servers.name', query['filter[name]']],
    ['servers.description', query['filter[description]']],
    ['servers.external_id', query['filter[external_id]']],
  ] as const;
  for (const [column, value] of partial) {
    // As the reference panel: a comma splits the value into alternatives; empty parts are ignored.
    const parts = (value ?? '').split(',').filter((p) => p !== '');
    if (parts.length) out.push(eb.or(parts.map((p) => likeExpr(column, `%${escapeLike(p)}%`))));
  }
  const text = query['filter[*]'];
  if (text) out.push(freeText(eb, text));
  return out;
}

// Four dotted 1–3 digit groups with an optional `:port`, or just `:port`.
const ADDRESS = /^(?:(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?|:(\d{1,5}))$/;

function freeText(eb: Eb, value: string): Expression<SqlBool> {
  const address = ADDRESS.exec(value);
  if (address) {
    const ip = address[1];
    const port = address[2] ?? address[3];
    let matching = eb.selectFrom('allocations').select('allocations.server_id').where('allocations.server_id', 'is not', null);
    if (ip) matching = matching.where('allocations.ip', '=', ip);
    // The port is digits only, so the prefix pattern needs no escaping.
    if (port) matching = matching.where(sql<SqlBool>`cast(allocations.port as text) like ${`${port}%`}`);
    return eb('servers.id', 'in', matching);
  }
  return eb.or([
    eb('servers.uuid', '=', value),
    likeExpr('servers.uuid', `${escapeLike(value)}%`),
    eb('servers.uuid_short', '=', value),
    eb('servers.external_id', '=', value),
    likeExpr('servers.name', `%${escapeLike(value)}%`),
    // Aerie's addition: people type a bare port (`25566`) more often than `:25566`. It matches an
    // allocation's port exactly (a prefix would match half the panel from one digit), besides
    // everything a text matches.
    ...(BARE_PORT.test(value) ? [eb('servers.id', 'in', serversWithPort(eb, Number(value)))] : []),
  ]);
}

const BARE_PORT = /^\d{1,5}$/;

function serversWithPort(eb: Eb, port: number) {
  return eb
    .selectFrom('allocations')
    .select('allocations.server_id')
    .where('allocations.server_id', 'is not', null)
    .where('allocations.port', '=', port);
}

/** Sets one variable's value for a server, whether or not it had its own value before. */
export async function setVariableValue(db: Db, serverId: number, variableId: number, value: string): Promise<void> {
  await db
    .insertInto('server_variables')
    .values({ server_id: serverId, variable_id: variableId, variable_value: value })
    .onConflict((oc) => oc.columns(['server_id', 'variable_id']).doUpdateSet({ variable_value: value }))
    .execute();
}

/** Removes the server's row; its subusers, backup and database records and variable values go with it, its allocations are freed. */
export async function remove(db: Db, serverId: number): Promise<boolean> {
  const result = await db.deleteFrom('servers').where('id', '=', serverId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function exist(db: Db): Promise<boolean> {
  return (await db.selectFrom('servers').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function ownedBy(db: Db, userId: number): Promise<ServerRow[]> {
  return db.selectFrom('servers').selectAll().where('owner_id', '=', userId).orderBy('id').execute();
}

/** Every server with its owner, egg and primary allocation, oldest first (the admin CLI's list). */
export function overview(db: Db) {
  return db
    .selectFrom('servers')
    .innerJoin('users', 'users.id', 'servers.owner_id')
    .innerJoin('eggs', 'eggs.id', 'servers.egg_id')
    .leftJoin('allocations', 'allocations.id', 'servers.allocation_id')
    .select([
      'servers.uuid',
      'servers.uuid_short',
      'servers.name',
      'servers.status',
      'servers.memory',
      'servers.disk',
      'servers.cpu',
      'servers.docker_image',
      'users.email as owner',
      'eggs.name as egg',
      'allocations.ip',
      'allocations.port',
    ])
    .orderBy('servers.id')
    .execute();
}

export type ServerBuild = Partial<Pick<ServerRow, 'memory' | 'disk' | 'cpu' | 'owner_id' | 'egg_id' | 'startup' | 'docker_image'>>;

/**
 * An operator's change of limits, owner, egg or image. A new egg's variables start from their
 * defaults: the values kept for the old egg's variables go (call it in a write transaction).
 */
export async function setBuild(db: Db, serverId: number, build: ServerBuild, now: Date): Promise<ServerRow> {
  const row = await db
    .updateTable('servers')
    .set({ ...build, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (build.egg_id !== undefined) {
    const ofEgg = db.selectFrom('egg_variables').select('id').where('egg_id', '=', row.egg_id);
    await db.deleteFrom('server_variables').where('server_id', '=', serverId).where('variable_id', 'not in', ofEgg).execute();
  }
  return row;
}
