import type { ApplicationResource } from '../../contract/endpoint';
import type { KeyAccess } from '../../contract/admin-api-keys';
import { t } from './messages';

/** The resources a key is granted on, as the form and the list name them (message keys). */
export const RESOURCE_LABELS = {
  users: 'adminApiKeys.resource.users',
  nodes: 'adminApiKeys.resource.nodes',
  allocations: 'adminApiKeys.resource.allocations',
  locations: 'adminApiKeys.resource.locations',
  servers: 'adminApiKeys.resource.servers',
  server_databases: 'adminApiKeys.resource.serverDatabases',
  nests: 'adminApiKeys.resource.nests',
  eggs: 'adminApiKeys.resource.eggs',
  database_hosts: 'adminApiKeys.resource.databaseHosts',
} as const satisfies Record<ApplicationResource, string>;

/** "Servers: read · Users: read & write", or "No permissions", in the language being shown. */
export function describePermissions(permissions: Partial<Record<ApplicationResource, KeyAccess>>): string {
  const parts = (Object.keys(RESOURCE_LABELS) as ApplicationResource[])
    .filter((r) => permissions[r] && permissions[r] !== 'none')
    .map((r) => t('adminApiKeys.grant', { resource: t(RESOURCE_LABELS[r]), access: permissions[r] }));
  return parts.length ? parts.join(' · ') : t('adminApiKeys.noPermissions');
}
