import type { Server } from '../../contract/servers';

/** The default allocation as players type it: alias over IP, brackets around IPv6. */
export function primaryAddress(server: Pick<Server, 'relationships'>): string | null {
  const allocations = server.relationships.allocations.data.map((a) => a.attributes);
  const primary = allocations.find((a) => a.is_default) ?? allocations[0];
  if (!primary) return null;
  const host = primary.ip_alias || primary.ip;
  return `${host.includes(':') ? `[${host}]` : host}:${primary.port}`;
}
