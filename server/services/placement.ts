import type { Db } from '../db';
import { allocations, nodes } from '../db/repos';
import type { NodeRow } from '../db/schema';
import type { PortRange } from './allocations';
import { NodeError } from './nodes';

/*
 * Where a new server goes (issue 24 §2): the node named, or else the node with the most free
 * memory that has a free port. Free memory is the node's `memory` less the memory limits of the
 * servers on it. A node whose `memory` is 0 has not said what it offers: it promises nothing, so
 * it is chosen only when no node that states its memory has room (the panel's own node, made
 * without a figure, keeps taking every server until an operator attaches one that states it).
 * Nodes in maintenance are not chosen unless named.
 *
 * Allocations an operator made through the application API (the reference's way: an address and
 * ports, no range) outside the ports placement would make are taken first, lowest address and
 * port: a Wings node given 10.0.0.5:25565-25600 puts servers there, not on the panel's default
 * range on 127.0.0.1. A node without such free allocations is placed as before, and a request
 * naming an address or a port keeps to the node's address.
 */

/** The address and ports a node's allocations take: its own, else the panel's defaults. */
export interface AllocationRules {
  /** Null: the caller's default (today's 127.0.0.1, or the server's primary address). */
  ip: string | null;
  range: PortRange;
}

export function allocationRules(node: Pick<NodeRow, 'allocation_ip' | 'port_start' | 'port_end'>, panelPorts: PortRange): AllocationRules {
  const own = node.port_start !== null && node.port_end !== null ? { start: node.port_start, end: node.port_end } : null;
  return { ip: node.allocation_ip, range: own ?? panelPorts };
}

/** Whether some port of the node's range on `ip` is held by no server. */
export async function hasFreePort(db: Db, nodeId: number, ip: string, range: PortRange): Promise<boolean> {
  const held = (await allocations.inRange(db, nodeId, ip, range.start, range.end)).filter((a) => a.server_id !== null);
  return held.length < range.end - range.start + 1;
}

export interface PlacementRequest {
  /** A node's name or id, as the operator typed it; absent: the panel chooses. */
  node?: string;
  /** The new server's memory limit (MiB; 0: unlimited). */
  memory: number;
  /** PANEL_ALLOCATION_PORTS: the range of a node that has none of its own. */
  panelPorts: PortRange;
  /** The address asked for (the caller's); else the node's, else 127.0.0.1. */
  ip?: string;
  /** A port asked for (the CLI's --port): it is made on the node's address, so free allocations are not taken. */
  port?: number;
}

export interface Placement {
  node: NodeRow;
  ip: string;
  range: PortRange;
}

const isRemote = (node: NodeRow): number => (node.daemon_base_url === null ? 0 : 1);

export async function placeServer(db: Db, request: PlacementRequest): Promise<Placement> {
  const at = async (node: NodeRow): Promise<Placement> => {
    const rules = allocationRules(node, request.panelPorts);
    const placed = { node, ip: request.ip ?? rules.ip ?? '127.0.0.1', range: rules.range };
    if (request.ip !== undefined || request.port !== undefined) return placed;
    const made = await allocations.firstFreeOutside(db, node.id, placed.ip, placed.range.start, placed.range.end);
    // A one-port range: takeFreePort (servers.ts) assigns that free row in its write transaction.
    return made ? { node, ip: made.ip, range: { start: made.port, end: made.port } } : placed;
  };
  if (request.node !== undefined) {
    const named = request.node;
    const node = (await nodes.findByName(db, named)) ?? (/^\d{1,9}$/.test(named) ? await nodes.findById(db, Number(named)) : undefined);
    if (!node) throw new NodeError(`No node named ${named}.`);
    const placed = await at(node);
    if (!(await hasFreePort(db, node.id, placed.ip, placed.range))) {
      throw new NodeError(`Node ${node.name} has no free port: ${placed.range.start}-${placed.range.end} on ${placed.ip} are all taken.`);
    }
    return placed;
  }
  const [all, committed] = await Promise.all([nodes.all(db), nodes.committedMemory(db)]);
  const free = (node: NodeRow) => (node.memory > 0 ? node.memory - (committed.get(node.id) ?? 0) : null);
  const candidates = all
    .filter((node) => node.maintenance_mode === 0)
    .filter((node) => {
      const room = free(node);
      // A node with nothing left has no room, even for a server without a limit.
      return room === null || (room > 0 && room >= request.memory);
    })
    // Most free memory first; nodes that say nothing after every node that does, the panel's own
    // node first among them (it is always there, and was the only choice before); then the oldest.
    .sort((a, b) => (free(b) ?? -Infinity) - (free(a) ?? -Infinity) || isRemote(a) - isRemote(b) || a.id - b.id);
  const full: string[] = [];
  for (const node of candidates) {
    const placed = await at(node);
    if (await hasFreePort(db, node.id, placed.ip, placed.range)) return placed;
    full.push(`${node.name}: ${placed.range.start}-${placed.range.end} on ${placed.ip}`);
  }
  if (full.length > 0) throw new NodeError(`There are no free ports left on any node with room for the server (${full.join('; ')}).`);
  throw new NodeError(`No node has ${request.memory > 0 ? `${request.memory} MiB of ` : ''}memory free for the server.`);
}
