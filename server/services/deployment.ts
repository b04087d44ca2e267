import type { Db } from '../db';
import { allocations, applicationServers, nodes } from '../db/repos';
import type { AllocationRow, NodeRow } from '../db/schema';
import { HttpError } from '../http/errors';
import { takeFreePort, type PortRange } from './allocations';
import { allocationRules, hasFreePort } from './placement';

/*
 * Automatic deployment (the reference's FindViableNodesService and AllocationSelectionService):
 * the nodes of the locations named with room for the server's memory and disk, then a free
 * allocation on one of them whose port is in the ranges asked for. A node's unassigned allocation
 * rows come first, as in the reference; then, as Aerie's nodes may hand out any port of their
 * range, the lowest free port of that range within the ranges asked for.
 */

export const NO_VIABLE_NODE = 'No nodes satisfying the requirements specified for automatic deployment could be found.';
export const NO_VIABLE_ALLOCATION = 'No allocations satisfying the requirements for automatic deployment were found.';

export interface DeploymentRequest {
  /** Location ids; none: every location. */
  locations: readonly number[];
  /** An address no server holds any port on. */
  dedicatedIp: boolean;
  /** `25565` or `25565-25570`; none: every port is allowed. */
  portRanges: readonly string[];
  memory: number;
  disk: number;
}

/** The nodes that could take the server, the most free memory first (as `placement.ts` orders them). */
export async function viableNodes(db: Db, request: Pick<DeploymentRequest, 'locations' | 'memory' | 'disk'>): Promise<NodeRow[]> {
  const [all, memory, disk] = await Promise.all([nodes.all(db), nodes.committedMemory(db), applicationServers.committedDisk(db)]);
  // A node that says nothing of its memory or disk (0) promises nothing, and refuses nothing.
  const room = (total: number, used: number | undefined, wanted: number) => total === 0 || total - (used ?? 0) >= wanted;
  const free = (n: NodeRow) => (n.memory > 0 ? n.memory - (memory.get(n.id) ?? 0) : -Infinity);
  return all
    .filter((n) => request.locations.length === 0 || (n.location_id !== null && request.locations.includes(n.location_id)))
    .filter((n) => n.maintenance_mode === 0)
    .filter((n) => room(n.memory, memory.get(n.id), request.memory) && room(n.disk, disk.get(n.id), request.disk))
    .sort((a, b) => free(b) - free(a) || a.id - b.id);
}

function parseRanges(portRanges: readonly string[]): PortRange[] {
  return portRanges.map((text) => {
    const [start = 0, end = start] = text.split('-').map(Number);
    return { start: Math.min(start, end), end: Math.max(start, end) };
  });
}

const inRanges = (port: number, ranges: readonly PortRange[]) => ranges.length === 0 || ranges.some((r) => port >= r.start && port <= r.end);

/** Where deployment puts the server: its node, and how to take the allocation once the row exists. */
export interface DeploymentTarget {
  node: NodeRow;
  take(serverId: number): Promise<AllocationRow>;
}

/**
 * Picks the node and the allocation (call it and `take` in the creation's write transaction, so
 * two deployments never take the same port). 400 NoViableNodeException or
 * NoViableAllocationException when there is none, the reference's errors.
 */
export async function deploymentTarget(trx: Db, request: DeploymentRequest, panelPorts: PortRange): Promise<DeploymentTarget> {
  const candidates = await viableNodes(trx, request);
  if (candidates.length === 0) throw new HttpError(400, 'NoViableNodeException', NO_VIABLE_NODE);
  const ranges = parseRanges(request.portRanges);
  for (const node of candidates) {
    const used = request.dedicatedIp ? await applicationServers.usedAddresses(trx, node.id) : new Set<string>();
    const existing = (await applicationServers.freeAllocationsOf(trx, node.id)).find((a) => inRanges(a.port, ranges) && !used.has(a.ip));
    if (existing) return { node, take: (serverId) => allocations.assign(trx, existing.id, serverId) };
    // A dedicated address must be one the node already lists: ports made on demand share the node's.
    if (request.dedicatedIp) continue;
    const rules = allocationRules(node, panelPorts);
    const ip = rules.ip ?? '127.0.0.1';
    for (const range of ranges.length === 0 ? [rules.range] : ranges) {
      const within = { start: Math.max(range.start, rules.range.start), end: Math.min(range.end, rules.range.end) };
      if (within.start <= within.end && (await hasFreePort(trx, node.id, ip, within))) {
        return { node, take: (serverId) => takeFreePort(trx, { nodeId: node.id, ip, range: within, serverId }) };
      }
    }
  }
  throw new HttpError(400, 'NoViableAllocationException', NO_VIABLE_ALLOCATION);
}
