import type { ApplicationResource } from '../../src/contract/endpoint';
import type { Location } from '../../src/contract/locations';
import type { Node, NodeAllocation } from '../../src/contract/nodes';
import type { AllocationRow, LocationRow, NodeRow } from '../db/schema';
import type { Caller } from '../services/authentication';

/*
 * The application API's `location`, `node` and `allocation` (the reference panel's transformers)
 * and its `include=`: relationships under `attributes.relationships`, each a list or an item, or a
 * null resource where the key may not read what is included (a root admin's session reads all).
 */

type Related = { object: string; attributes: { id: number } & Record<string, unknown> };
export type RelationshipValue = { object: 'list'; data: Related[] } | Related | { object: 'null_resource'; attributes: null };

/** The includes asked for that the resource has, in the order asked, each once. */
export function includesOf<const N extends string>(include: string | undefined, available: readonly N[]): N[] {
  const asked = (include ?? '').split(',').map((s) => s.trim());
  return available.filter((name) => asked.includes(name));
}

export function mayRead(caller: Caller, resource: ApplicationResource): boolean {
  if (caller.sessionId !== null) return true;
  return ((caller.applicationGrants?.[resource] ?? 0) & 1) !== 0;
}

export const NULL_RESOURCE = { object: 'null_resource' as const, attributes: null };
export const listOf = (data: Related[]): RelationshipValue => ({ object: 'list', data });

export function locationResource(row: LocationRow, relationships?: Record<string, RelationshipValue>): { object: 'location'; attributes: Location } {
  return {
    object: 'location',
    attributes: {
      id: row.id,
      short: row.short,
      long: row.long,
      updated_at: row.updated_at,
      created_at: row.created_at,
      ...(relationships ? { relationships } : {}),
    },
  };
}

/** How the panel's own node is reached: the panel's own address. */
export interface NodeAddressing {
  panelOrigin: string;
}

export function nodeResource(
  row: NodeRow,
  allocated: { memory: number; disk: number } | undefined,
  addressing: NodeAddressing,
  relationships?: Record<string, RelationshipValue>,
): { object: 'node'; attributes: Node } {
  const url = new URL(row.daemon_base_url ?? addressing.panelOrigin);
  return {
    object: 'node',
    attributes: {
      id: row.id,
      uuid: row.uuid,
      public: row.public === 1,
      name: row.name,
      description: row.description,
      location_id: row.location_id,
      fqdn: row.fqdn,
      scheme: url.protocol.replace(':', ''),
      behind_proxy: row.behind_proxy === 1,
      maintenance_mode: row.maintenance_mode === 1,
      memory: row.memory,
      memory_overallocate: row.memory_overallocate,
      disk: row.disk,
      disk_overallocate: row.disk_overallocate,
      upload_size: row.upload_size,
      daemon_listen: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      daemon_sftp: row.sftp_port,
      daemon_base: row.daemon_base,
      created_at: row.created_at,
      updated_at: row.updated_at,
      allocated_resources: allocated ?? { memory: 0, disk: 0 },
      ...(relationships ? { relationships } : {}),
    },
  };
}

export function allocationResource(
  row: AllocationRow,
  relationships?: Record<string, RelationshipValue>,
): { object: 'allocation'; attributes: NodeAllocation } {
  return {
    object: 'allocation',
    attributes: {
      id: row.id,
      ip: row.ip,
      alias: row.ip_alias,
      port: row.port,
      notes: row.notes,
      assigned: row.server_id !== null,
      ...(relationships ? { relationships } : {}),
    },
  };
}
