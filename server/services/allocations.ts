import { writeTransaction, type Db } from '../db';
import { allocations, servers } from '../db/repos';
import type { AllocationRow, ServerRow } from '../db/schema';
import { badRequest, notFound } from '../http/errors';

/*
 * A server's allocations (the reference panel's network tab): new ones come from the node's port
 * range up to the server's allocation limit, and the primary one is never taken away.
 */

export const LIMIT_REACHED = 'Cannot assign additional allocations to this server: limit has been reached.';
export const NO_FREE_PORT = 'There are no free ports left in the port range of this server’s node.';
export const NO_LIMIT_SET = 'You cannot delete allocations for this server: no allocation limit is set.';
export const PRIMARY_KEPT = 'You cannot delete the primary allocation for this server.';

/** The allocation of this server with this route id; any other (another server's, none) is 404. */
export async function allocationOf(db: Db, server: ServerRow, id: string): Promise<AllocationRow> {
  const allocation = /^\d{1,15}$/.test(id) ? await allocations.findById(db, Number(id)) : undefined;
  if (!allocation || allocation.server_id !== server.id) throw notFound();
  return allocation;
}

/**
 * Gives the server the lowest free port of its node's range on the node's address (`at`, from
 * `placement.ts`'s `allocationRules`; a node without one: the server's primary address), up to
 * its allocation limit. One write transaction, so parallel requests never pass the limit together
 * nor take the same port.
 */
export async function createAllocation(db: Db, server: ServerRow, at: { ip: string | null; range: PortRange }): Promise<AllocationRow> {
  return writeTransaction(db, async (trx) => {
    // A null limit means none may be added (the reference panel compares null <= count).
    const limit = (await servers.findById(trx, server.id))?.allocation_limit ?? null;
    if (limit === null || (await allocations.countOfServer(trx, server.id)) >= limit) throw badRequest(LIMIT_REACHED, 'DisplayException');
    const primary = server.allocation_id === null ? undefined : await allocations.findById(trx, server.allocation_id);
    return takeFreePort(trx, { nodeId: server.node_id, ip: at.ip ?? primary?.ip ?? '127.0.0.1', range: at.range, serverId: server.id });
  });
}

export interface PortRange {
  start: number;
  end: number;
}

/**
 * Assigns the lowest port of `range` on a node's address that no server holds: a free allocation
 * row the node already has, else a new one. For a new server's primary port and "add allocation"
 * alike; call it inside the caller's write transaction.
 */
export async function takeFreePort(trx: Db, at: { nodeId: number; ip: string; range: PortRange; serverId: number }): Promise<AllocationRow> {
  const taken = await allocations.inRange(trx, at.nodeId, at.ip, at.range.start, at.range.end);
  const byPort = new Map(taken.map((a) => [a.port, a]));
  let port = at.range.start;
  while (port <= at.range.end && (byPort.get(port)?.server_id ?? null) !== null) port += 1;
  if (port > at.range.end) throw badRequest(NO_FREE_PORT, 'DisplayException');
  const free = byPort.get(port);
  if (free) return allocations.assign(trx, free.id, at.serverId);
  return allocations.insert(trx, { node_id: at.nodeId, ip: at.ip, ip_alias: null, port, server_id: at.serverId, notes: null });
}

/** Hands an allocation back to the node; never the primary, and only on servers with a limit. */
export async function deleteAllocation(db: Db, server: ServerRow, allocation: AllocationRow): Promise<void> {
  if (server.allocation_limit === null) throw badRequest(NO_LIMIT_SET, 'DisplayException');
  if (allocation.id === server.allocation_id) throw badRequest(PRIMARY_KEPT, 'DisplayException');
  await allocations.assign(db, allocation.id, null);
}

/** `ip:port`, how activity entries name an allocation. */
export const addressOf = (a: AllocationRow) => `${a.ip}:${a.port}`;
