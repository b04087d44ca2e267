import net from 'node:net';
import { writeTransaction, type Db } from '../db';
import { allocations } from '../db/repos';
import type { AllocationRow, NodeRow } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { NodeAllocationCreate, NodeAllocationUpdate } from '../../src/contract/nodes';

/*
 * A node's allocations as the application API makes them (the reference panel's AssignmentService):
 * an address, or an IPv4 block from /27 to /32, times ports and `start-end` ranges of at most 1000
 * ports above 1024. Ports the node has already on an address are skipped; any bad entry refuses
 * the whole request (one transaction), with the reference's exception and text. Host names are
 * refused rather than looked up: the panel sends no DNS queries on an admin's behalf.
 */

export const TOO_MANY_PORTS = 'Adding more than 1000 ports in a single range at once is not supported.';
export const PORT_OUT_OF_RANGE = 'Ports in an allocation must be greater than 1024 and less than or equal to 65535.';
export const CIDR_OUT_OF_RANGE = 'CIDR notation only allows masks between /25 and /32.';
export const SERVER_USING =
  'A server is currently assigned to this allocation. An allocation can only be deleted if no server is currently assigned.';
/** Aerie's cap on one request (the reference has none): 32 addresses of 1000-port ranges stay far below it. */
export const MAX_NEW_ALLOCATIONS = 100_000;

const invalidMapping = (port: string) =>
  badRequest(`The mapping provided for ${port} was invalid and could not be processed.`, 'InvalidPortMappingException');

/** The addresses `ip` names: itself, or every address of an IPv4 block. */
export function addressesOf(ip: string): string[] {
  const [address = '', mask, ...rest] = ip.split('/');
  if (rest.length > 0) throw badRequest(`Could not parse provided allocation IP address (${ip}).`, 'DisplayException');
  if (mask !== undefined) {
    const bits = /^\d{1,2}$/.test(mask) ? Number(mask) : NaN;
    if (!(bits >= 27 && bits <= 32)) throw badRequest(CIDR_OUT_OF_RANGE, 'CidrOutOfRangeException');
    if (net.isIPv4(address)) {
      const value = address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
      const size = 2 ** (32 - bits);
      const base = value - (value % size);
      return Array.from({ length: size }, (_, i) => {
        const n = base + i;
        return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
      });
    }
  } else if (net.isIP(address) !== 0) {
    return [address];
  }
  throw badRequest(`Could not parse provided allocation IP address (${ip}).`, 'DisplayException');
}

/** The ports the entries name, checked with the reference's rules. */
export function portsOf(entries: readonly string[]): number[] {
  const ports: number[] = [];
  for (const entry of entries) {
    const range = /^(\d{4,5})-(\d{4,5})$/.exec(entry);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      const [start, end] = [Math.min(a, b), Math.max(a, b)];
      if (end - start + 1 > 1000) throw badRequest(TOO_MANY_PORTS, 'TooManyPortsInRangeException');
      if (a <= 1024 || b > 65535) throw badRequest(PORT_OUT_OF_RANGE, 'PortOutOfRangeException');
      for (let port = start; port <= end; port += 1) ports.push(port);
    } else if (/^\d+$/.test(entry)) {
      const port = Number(entry);
      if (port <= 1024 || port > 65535) throw badRequest(PORT_OUT_OF_RANGE, 'PortOutOfRangeException');
      ports.push(port);
    } else {
      throw invalidMapping(entry);
    }
  }
  return ports;
}

/** Adds the allocations; how many were new (the rest the node had already). */
export async function addNodeAllocations(
  db: Db,
  node: NodeRow,
  body: NodeAllocationCreate,
): Promise<{ added: number; addresses: string[]; ports: number }> {
  const addresses = addressesOf(body.ip.trim());
  const ports = [...new Set(portsOf(body.ports))];
  if (addresses.length * ports.length > MAX_NEW_ALLOCATIONS) {
    throw badRequest(`Adding more than ${MAX_NEW_ALLOCATIONS} allocations at once is not supported.`, 'DisplayException');
  }
  const rows = addresses.flatMap((ip) =>
    ports.map((port) => ({ node_id: node.id, ip, ip_alias: body.alias ?? null, port, server_id: null, notes: null })),
  );
  const added = await writeTransaction(db, (trx) => allocations.insertIgnore(trx, rows));
  return { added, addresses, ports: ports.length };
}

/** The allocation of this node with this route id; another node's, or none, is 404. */
export async function nodeAllocation(db: Db, node: NodeRow, param: unknown, missing: string): Promise<AllocationRow> {
  const id = typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null;
  const allocation = id === null ? undefined : await allocations.findById(db, id);
  if (!allocation || allocation.node_id !== node.id) throw notFound(missing);
  return allocation;
}

export async function deleteNodeAllocation(db: Db, allocation: AllocationRow): Promise<void> {
  if (!(await allocations.removeFree(db, allocation.id))) throw badRequest(SERVER_USING, 'ServerUsingAllocationException');
}

/** The allocation's alias and notes, as given; with nothing to change it is returned as it is. */
export async function updateNodeAllocation(db: Db, allocation: AllocationRow, change: NodeAllocationUpdate): Promise<AllocationRow> {
  const labels = {
    ...(change.ip_alias !== undefined ? { ip_alias: change.ip_alias } : {}),
    ...(change.notes !== undefined ? { notes: change.notes } : {}),
  };
  if (Object.keys(labels).length === 0) return allocation;
  return allocations.setLabels(db, allocation.id, labels);
}
