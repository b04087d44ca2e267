import type { Db } from '../index';
import type { Insertable, Updateable } from 'kysely';
import type { NodeRow, NodesTable } from '../schema';

export function first(db: Db): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().orderBy('id').executeTakeFirst();
}

/** The node this panel serves itself (the first without a daemon address of its own). */
export function local(db: Db): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('daemon_base_url', 'is', null).orderBy('id').executeTakeFirst();
}

export function findById(db: Db, id: number): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByIds(db: Db, ids: readonly number[]): Promise<NodeRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('nodes').selectAll().where('id', 'in', ids).execute();
}

/** The signing key of the node this panel serves itself (the first node without a daemon address). */
export async function localKey(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('nodes').select('daemon_token').where('daemon_base_url', 'is', null).orderBy('id').executeTakeFirst();
  return row?.daemon_token;
}

export function all(db: Db): Promise<NodeRow[]> {
  return db.selectFrom('nodes').selectAll().orderBy('id').execute();
}

/*
 * Counts the changes this process made to nodes' addresses, so what is kept of them (the origins
 * the security headers allow) is read again at once; another process's changes are seen on expiry.
 */
let changes = 0;
export const changeCount = (): number => changes;

export async function insert(db: Db, node: Insertable<NodesTable>): Promise<NodeRow> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('nodes')
    .values({ created_at: now, updated_at: now, ...node })
    .returningAll()
    .executeTakeFirstOrThrow();
  changes += 1;
  return row;
}

/** Changes a node's settings (its address among them: counted as a change). */
export async function update(db: Db, id: number, set: Updateable<NodesTable>): Promise<NodeRow> {
  const row = await db.updateTable('nodes').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  changes += 1;
  return row;
}

/** Where every node with a daemon of its own listens. */
export async function daemonUrls(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('nodes').select('daemon_base_url').where('daemon_base_url', 'is not', null).execute();
  return rows.flatMap((r) => (r.daemon_base_url === null ? [] : [r.daemon_base_url]));
}

/** Where the nodes served by this panel's own daemon take SFTP connections (what `sftp_details` shows). */
export async function setLocalSftp(db: Db, address: { fqdn?: string; port: number }): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ sftp_port: address.port, ...(address.fqdn ? { fqdn: address.fqdn } : {}) })
    .where('daemon_base_url', 'is', null)
    .execute();
}

/** The node whose Wings `token_id` this is. */
export function findByTokenId(db: Db, tokenId: string): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('daemon_token_id', '=', tokenId).executeTakeFirst();
}

/** One page of the node's servers' uuids, oldest first, and how many it has. */
export async function serverPage(db: Db, nodeId: number, page: { offset: number; limit: number }): Promise<{ uuids: string[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('servers').select('uuid').where('node_id', '=', nodeId).orderBy('id').offset(page.offset).limit(page.limit).execute(),
    db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', nodeId)
      .executeTakeFirstOrThrow(),
  ]);
  return { uuids: rows.map((r) => r.uuid), total: Number(count.n) };
}

export function findByName(db: Db, name: string): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('name', '=', name).executeTakeFirst();
}

/** How many servers live on each node that has some. */
export async function serverCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('servers')
    .select(['node_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((r) => [r.node_id, Number(r.n)]));
}

/** The memory limits (MiB) of the servers on each node that has some; unlimited servers count 0. */
export async function committedMemory(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('servers')
    .select(['node_id', (eb) => eb.fn.sum<number>('memory').as('mib')])
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((r) => [r.node_id, Number(r.mib)]));
}

/** Per node with servers: how many, and the sums of their memory and disk limits (MiB; unlimited counts 0). */
export async function usage(db: Db): Promise<Map<number, { servers: number; memory: number; disk: number }>> {
  const rows = await db
    .selectFrom('servers')
    .select([
      'node_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('memory').as('memory'),
      (eb) => eb.fn.sum<number>('disk').as('disk'),
    ])
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((r) => [r.node_id, { servers: Number(r.n), memory: Number(r.memory), disk: Number(r.disk) }]));
}

/** Deletes a node and its free allocations; false when a server was placed on it meanwhile. */
export async function removeEmpty(db: Db, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const server = await trx.selectFrom('servers').select('id').where('node_id', '=', id).executeTakeFirst();
    if (server) return false;
    await trx.deleteFrom('allocations').where('node_id', '=', id).execute();
    await trx.deleteFrom('nodes').where('id', '=', id).execute();
    changes += 1;
    return true;
  });
}

export function tokens(db: Db): Promise<Pick<NodeRow, 'id' | 'daemon_token'>[]> {
  return db.selectFrom('nodes').select(['id', 'daemon_token']).execute();
}

/** Replaces the node's token only if it is still `from`, so two processes sealing at once are harmless. */
export async function replaceToken(db: Db, id: number, from: string, to: string): Promise<void> {
  await db.updateTable('nodes').set({ daemon_token: to }).where('id', '=', id).where('daemon_token', '=', from).execute();
}
