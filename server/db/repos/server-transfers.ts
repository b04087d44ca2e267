import type { Db } from '../index';
import type { ServerTransferRow } from '../schema-transfers';

/* Server transfers: one row per attempt; the running one has `successful` null. */

export interface NewTransfer {
  serverId: number;
  oldNode: number;
  newNode: number;
  oldAllocation: number;
  newAllocation: number;
  oldAdditional: number[];
  newAdditional: number[];
  now: Date;
}

export function insert(db: Db, t: NewTransfer): Promise<ServerTransferRow> {
  const at = t.now.toISOString();
  return db
    .insertInto('server_transfers')
    .values({
      server_id: t.serverId,
      old_node: t.oldNode,
      new_node: t.newNode,
      old_allocation: t.oldAllocation,
      new_allocation: t.newAllocation,
      old_additional_allocations: JSON.stringify(t.oldAdditional),
      new_additional_allocations: JSON.stringify(t.newAdditional),
      successful: null,
      reason: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The server's running transfer, if any. */
export function running(db: Db, serverId: number): Promise<ServerTransferRow | undefined> {
  return db.selectFrom('server_transfers').selectAll().where('server_id', '=', serverId).where('successful', 'is', null).executeTakeFirst();
}

/** The server's latest transfer, whatever its outcome. */
export function latestOfServer(db: Db, serverId: number): Promise<ServerTransferRow | undefined> {
  return db.selectFrom('server_transfers').selectAll().where('server_id', '=', serverId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** The running transfers from or to one node. */
export function runningOfNode(db: Db, nodeId: number): Promise<ServerTransferRow[]> {
  return db
    .selectFrom('server_transfers')
    .selectAll()
    .where('successful', 'is', null)
    .where((eb) => eb.or([eb('old_node', '=', nodeId), eb('new_node', '=', nodeId)]))
    .orderBy('id')
    .execute();
}

export function findById(db: Db, id: number): Promise<ServerTransferRow | undefined> {
  return db.selectFrom('server_transfers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ends a running transfer; false when it had ended already (a second report). */
export async function finish(db: Db, id: number, successful: boolean, reason: string | null, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('server_transfers')
    .set({ successful: successful ? 1 : 0, reason, archived: successful ? 1 : 0, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('successful', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The allocation ids of a JSON column. */
export function idsOf(json: string): number[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => typeof id === 'number') : [];
}

/** Marks the server as moving (the client API refuses it meanwhile, as the reference). */
export async function setTransferring(db: Db, serverId: number, transferring: boolean, now: Date): Promise<void> {
  await db
    .updateTable('servers')
    .set({ is_transferring: transferring ? 1 : 0, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .execute();
}

/** The server now lives on `nodeId` with `allocationId` as its primary port. */
export async function moveServer(db: Db, serverId: number, nodeId: number, allocationId: number, now: Date): Promise<void> {
  await db
    .updateTable('servers')
    .set({ node_id: nodeId, allocation_id: allocationId, is_transferring: 0, updated_at: now.toISOString() })
    .where('id', '=', serverId)
    .execute();
}
