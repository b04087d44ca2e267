import type { ApplicationResource } from '../../contract/endpoint';
import type { KeyAccess } from '../../contract/admin-api-keys';

/** The resources a key is granted on, as the form and the list name them. */
export const RESOURCE_LABELS: Record<ApplicationResource, string> = {
  users: 'Users',
  nodes: 'Nodes',
  allocations: 'Allocations',
  locations: 'Locations',
  servers: 'Servers',
  server_databases: 'Server databases',
  nests: 'Nests',
  eggs: 'Eggs',
  database_hosts: 'Database hosts',
};

export const ACCESS_LABELS: Record<KeyAccess, string> = { none: 'None', r: 'Read', w: 'Write', rw: 'Read & write' };

/** "Servers: read · Users: read & write", or "No permissions". */
export function describePermissions(permissions: Partial<Record<ApplicationResource, KeyAccess>>): string {
  const parts = (Object.keys(RESOURCE_LABELS) as ApplicationResource[])
    .filter((r) => permissions[r] && permissions[r] !== 'none')
    .map((r) => `${RESOURCE_LABELS[r]}: ${ACCESS_LABELS[permissions[r] ?? 'none'].toLowerCase()}`);
  return parts.length ? parts.join(' · ') : 'No permissions';
}
